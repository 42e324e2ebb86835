#!/bin/sh
# Installs the runner image's packages with the base image's own package manager, so one
# Dockerfile serves both bases: Fedora (production: dnf/microdnf, with SPDK, which Fedora packages
# and Debian does not) and Debian bookworm (CI's locally made base, without SPDK). Debian versions
# are pinned exactly (CI fails saying which pin to move when the archive drops one); Fedora's are
# pinned by the release the base names (FEDORA_RELEASE).
#   packages.sh build|runtime
set -eu

stage=$1
if command -v dnf >/dev/null 2>&1; then
	case $stage in
	build) dnf install -y --setopt=install_weak_deps=False gcc make cmake pkgconf-pkg-config \
		librdkafka-devel liburing-devel json-c-devel libblkid-devel isa-l-devel libcurl-devel net-snmp-devel spdk-devel ;;
	runtime) dnf install -y --setopt=install_weak_deps=False librdkafka liburing json-c libblkid isa-l libcurl ipmitool net-snmp-libs spdk ;;
	esac
	dnf clean all
elif command -v microdnf >/dev/null 2>&1; then
	microdnf install -y --setopt=install_weak_deps=0 librdkafka liburing json-c libblkid isa-l libcurl ipmitool net-snmp-libs spdk
	microdnf clean all
elif command -v apt-get >/dev/null 2>&1; then
	case $stage in
	build) packages="gcc=4:12.2.0-3 libc6-dev=2.36-9+deb12u14 make=4.3-4.1 cmake=3.25.1-1
		pkg-config=1.8.1-1 librdkafka-dev=2.0.2-1 liburing-dev=2.3-3 libjson-c-dev=0.16-2
		libblkid-dev=2.38.1-5+deb12u3 libisal-dev=2.30.0-5
		libcurl4-openssl-dev=7.88.1-10+deb12u15 libsnmp-dev=5.9.3+dfsg-2+deb12u1" ;;
	runtime) packages="librdkafka1=2.0.2-1 liburing2=2.3-3 libjson-c5=0.16-2
		libblkid1=2.38.1-5+deb12u3 libisal2=2.30.0-5 libcurl4=7.88.1-10+deb12u15
		ipmitool=1.8.19-4+deb12u2 libsnmp40=5.9.3+dfsg-2+deb12u1 ca-certificates=20250419~deb12u2" ;;
	esac
	apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages
	rm -rf /var/lib/apt/lists/*
else
	echo "packages.sh: the base image has neither dnf, microdnf nor apt-get" >&2
	exit 1
fi
