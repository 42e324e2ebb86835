#!/usr/bin/env bash
# The chart's checks, run by `mvn verify` (helm/pom.xml) and so by CI: helm lint, helm template
# with the default and the ci/ values, kubeconform validation of every rendered manifest against
# the Kubernetes JSON schemas, and the negative cases proving each check can fail. Tools come from
# .ci/install-chart-tools; without them the checks are skipped, except under CI=true.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
chart="$here/../drivequal"
root="$here/../.."
tools=${DRIVEQUAL_TOOLS_DIR:-$HOME/.cache/drivequal/tools}
kube_version=1.33.0
out="$here/../target/rendered"
PATH="$tools/bin:$PATH"

if ! command -v helm >/dev/null || ! command -v kubeconform >/dev/null; then
	if [ "${CI:-}" = true ]; then
		echo "chart checks: helm/kubeconform missing; CI must run .ci/install-chart-tools first" >&2
		exit 1
	fi
	echo "chart checks: SKIPPED (no helm/kubeconform; install them with .ci/install-chart-tools)"
	exit 0
fi
schemas=$(ls -d "$tools"/kubernetes-json-schema/*/ 2>/dev/null | tail -1)
[ -n "$schemas" ] || { echo "chart checks: no Kubernetes JSON schemas under $tools (run .ci/install-chart-tools)" >&2; exit 1; }

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "  ok    $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL  $*"; }
validate() { # manifest files...
	kubeconform -strict -summary -kubernetes-version "$kube_version" \
		-schema-location "${schemas%/}/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
		"$@"
}

rm -rf "$out"
mkdir -p "$out"
echo "chart checks: helm, kubeconform and the Kubernetes $kube_version schemas from $tools"

# helm renders NOTES.txt only on install: a copy of the chart carries it as a YAML block scalar,
# so helm template shows it (and fails on a template error in it).
notes_chart="$out/notes-chart"
cp -r "$chart" "$notes_chart"
{
	printf 'notes: |\n'
	sed 's/^/  /' "$chart/templates/NOTES.txt"
} >"$notes_chart/templates/notes-render.yaml"

# name, then helm arguments: the value sets every check renders.
value_sets=(
	"default"
	"production -f $chart/ci/production-values.yaml"
	"local-mode -f $chart/ci/local-mode-values.yaml"
)
for set in "${value_sets[@]}"; do
	read -r name args <<<"$set"
	# shellcheck disable=SC2086
	if helm lint --strict --kube-version "$kube_version" "$chart" $args >"$out/$name.lint.txt" 2>&1; then
		ok "helm lint --strict ($name values)"
	else
		bad "helm lint --strict ($name values)"
		cat "$out/$name.lint.txt"
	fi
	# shellcheck disable=SC2086
	if helm template drivequal "$chart" --kube-version "$kube_version" --namespace drivequal $args >"$out/$name.yaml" 2>"$out/$name.err"; then
		ok "helm template ($name values): $(grep -c '^kind:' "$out/$name.yaml") objects"
	else
		bad "helm template ($name values)"
		cat "$out/$name.err"
		continue
	fi
	# shellcheck disable=SC2086
	if helm template drivequal "$notes_chart" --kube-version "$kube_version" --namespace drivequal \
		${args//$chart/$notes_chart} --show-only templates/notes-render.yaml >"$out/$name.notes.txt" 2>&1; then
		ok "NOTES.txt renders ($name values)"
	else
		bad "NOTES.txt ($name values)"
		cat "$out/$name.notes.txt"
	fi
	if validate "$out/$name.yaml" >"$out/$name.kubeconform.txt" 2>&1; then
		ok "kubeconform ($name values): $(tail -1 "$out/$name.kubeconform.txt")"
	else
		bad "kubeconform ($name values)"
		cat "$out/$name.kubeconform.txt"
	fi
done

# What the production render must say: the runner's privileges and the service's hardening.
prod="$out/production.yaml"
expect() { # description, extended regex that must match the production render
	if grep -Eq -- "$2" "$prod"; then ok "production render: $1"; else bad "production render: $1 (/$2/ not found)"; fi
}
expect_not() {
	if grep -Eq -- "$2" "$prod"; then bad "production render: $1 (/$2/ found)"; else ok "production render: $1"; fi
}
expect "runner adds IPC_LOCK and nothing else" 'add:$'
expect "runner requests hugepages" 'hugepages-2Mi: 4Gi'
expect "runner gets vfio through the device plugin" 'squat.ai/vfio: 1'
expect "runner id is the node name" 'fieldPath: spec.nodeName'
expect "service root filesystem is read-only" 'readOnlyRootFilesystem: true'
expect "service runs as non-root" 'runAsNonRoot: true'
expect "service reads the Kafka password from a file" 'KAFKA_SASL_PASSWORD_FILE'
expect "setup Job is a post-install/upgrade hook" 'helm.sh/hook: post-install,post-upgrade'
expect_not "nothing is privileged" 'privileged: true'
expect_not "no host namespaces" 'host(Network|PID|IPC): true'
expect_not "no secret value in the manifests" 'sasl.password": "[^@]'
expect "runner DaemonSet updates OnDelete (drain, then delete the pod)" 'type: OnDelete'
expect "runner allowlist is mounted as a directory (the agent reloads it)" 'mountPath: /etc/drivequal-allowlist, readOnly: true'
expect_not "runner allowlist is never a subPath mount (a subPath never updates)" 'subPath: allowlist'
# A changed allowlist must leave the pod template alone (no restart); a changed agent config not.
checksum() { helm template drivequal "$chart" --kube-version "$kube_version" -f "$chart/ci/production-values.yaml" "$@" |
	grep -m1 'checksum/config:'; }
base_sum=$(checksum)
if [ "$base_sum" = "$(checksum --set 'runner.allowlist.devices[0].serial=S0ADDED')" ]; then
	ok "a changed allowlist keeps the runner pod template (no restart)"
else
	bad "a changed allowlist changes the runner pod template"
fi
if [ "$base_sum" != "$(checksum --set runner.heartbeatIntervalMs=7000)" ]; then
	ok "a changed agent configuration changes the runner pod template"
else
	bad "a changed agent configuration keeps the runner pod template"
fi
caps=$(awk '/name: runner$/,/volumeMounts/' "$prod" | awk '/add:/{getline; print}')
[ "$caps" = "              - IPC_LOCK" ] && ok "runner capabilities: IPC_LOCK only" || bad "runner capabilities: got '$caps'"

# The runner's own parser accepts the agent.json the chart renders (when the runner is built).
runner="$root/spdk-runner/target/build/drivequal-runner"
if [ -x "$runner" ]; then
	for name in default local-mode; do
		# A ConfigMap's data block: the lines indented under "  <key>: |", indentation removed.
		for key in agent allowlist; do
			awk -v key="  $key.json: |" '$0 == key {on = 1; next} on && /^    / {print substr($0, 5); next} on {on = 0}' \
				"$out/$name.yaml" >"$out/$name.$key.json"
		done
		sed -i "s|/etc/drivequal-allowlist/allowlist.json|$out/$name.allowlist.json|" "$out/$name.agent.json"
		if "$runner" agent --config "$out/$name.agent.json" --runner-id node-1 --check >"$out/$name.agent-check.txt" 2>&1; then
			ok "drivequal-runner agent --check accepts the rendered agent.json ($name values)"
		else
			bad "drivequal-runner agent --check ($name values)"
			cat "$out/$name.agent-check.txt"
		fi
	done
fi

# Negative cases: each check must be able to fail, and fail for the reason it exists.
refuses() { # description, expected error (extended regex), helm --set arguments...
	local description=$1 expected=$2
	shift 2
	if helm template drivequal "$chart" --kube-version "$kube_version" "$@" >/dev/null 2>"$out/negative.err"; then
		bad "$description: rendered"
	elif grep -Eq -- "$expected" "$out/negative.err"; then
		ok "$description: $(grep -Eo -m1 -- "$expected" "$out/negative.err")"
	else
		bad "$description: failed for another reason"
		cat "$out/negative.err"
	fi
}
refuses "values schema refuses a privileged runner" "privileged.*" --set runner.securityContext.privileged=true
refuses "values schema refuses a misspelt key" "additional properties 'replica' not allowed" --set service.replica=3
refuses "values schema refuses an unknown engine" "runner.devices.0.engine.*" --set 'runner.devices[0].engine=fio,runner.devices[0].target=x'
refuses "SASL without a username is refused" "kafka.sasl.service.username is required" --set kafka.securityProtocol=SASL_SSL
for manifest in "$here"/invalid/*.yaml; do
	if validate "$manifest" >"$out/neg-$(basename "$manifest" .yaml).txt" 2>&1; then
		bad "kubeconform refuses $(basename "$manifest")"
	else
		ok "kubeconform refuses $(basename "$manifest"): $(grep -m1 -Eo -- '- at .*' "$out/neg-$(basename "$manifest" .yaml).txt" | cut -c1-100)"
	fi
done

# The images' Dockerfiles (service/app's ContainerImagesIT builds and runs them with podman).
if command -v hadolint >/dev/null; then
	for dockerfile in "$root"/service/docker/Dockerfile "$root"/spdk-runner/docker/Dockerfile; do
		name=${dockerfile#"$root"/}
		if hadolint --no-color "$dockerfile" >"$out/hadolint.txt" 2>&1; then
			ok "hadolint $name"
		else
			bad "hadolint $name"
			cat "$out/hadolint.txt"
		fi
	done
else
	echo "  skip  hadolint (not installed)"
fi

echo "helm: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
