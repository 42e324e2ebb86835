/*
 * Where webhooks may go. A subscription names an http(s) URL; its host must be allowed by the
 * operator's host list (when there is one), and every address it resolves to must lie outside the
 * denied networks unless an allowed network covers it. Built in and always denied: the addresses a
 * server-side request must never reach on its own — loopback, link-local (169.254.0.0/16, where
 * cloud metadata services answer, and fe80::/10), the metadata addresses of the clouds that use
 * others (100.100.100.200, 192.0.0.192, fd00:ec2::254), unspecified and multicast. Checked when
 * subscribing (a 400 naming the field) and again before every attempt, since DNS answers change.
 */
package io.drivequal.service.webhooks;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.springframework.security.web.util.matcher.IpAddressMatcher;
import org.springframework.stereotype.Component;

@Component
class DestinationPolicy {

	static final List<String> BUILT_IN_DENIED = List.of("0.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16",
			"100.100.100.200/32", "192.0.0.192/32", "224.0.0.0/4", "255.255.255.255/32", "::/128", "::1/128",
			"fe80::/10", "fd00:ec2::254/128", "ff00::/8");

	private final List<String> allowedHosts;

	private final List<Network> denied = new ArrayList<>();

	private final List<Network> allowed = new ArrayList<>();

	DestinationPolicy(WebhookSettings settings) {
		WebhookSettings.Destinations destinations = settings.destinations();
		this.allowedHosts = destinations.allowedHosts()
			.stream()
			.map(String::trim)
			.filter((host) -> !host.isEmpty())
			.map((host) -> host.toLowerCase(Locale.ROOT))
			.toList();
		BUILT_IN_DENIED.forEach((cidr) -> this.denied.add(Network.of(cidr, "built-in")));
		destinations.deniedNetworks()
			.stream()
			.filter((cidr) -> !cidr.isBlank())
			.forEach((cidr) -> this.denied.add(Network.of(cidr.trim(), "denied-networks")));
		destinations.allowedNetworks()
			.stream()
			.filter((cidr) -> !cidr.isBlank())
			.forEach((cidr) -> this.allowed.add(Network.of(cidr.trim(), "allowed-networks")));
	}

	/** A URL the policy refuses, and why (never repeating the URL's path or query). */
	static final class RefusedDestination extends Exception {

		RefusedDestination(String reason) {
			super(reason);
		}

	}

	/**
	 * @return the URL as a URI when the policy allows it
	 * @throws RefusedDestination when it does not, saying why
	 */
	URI check(String url) throws RefusedDestination {
		URI uri;
		try {
			uri = new URI(url);
		}
		catch (java.net.URISyntaxException ex) {
			throw new RefusedDestination("is not a valid URL: " + ex.getReason());
		}
		String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
		if (!scheme.equals("http") && !scheme.equals("https")) {
			throw new RefusedDestination(
					"must be an http or https URL (got " + (scheme.isEmpty() ? "none" : scheme) + ")");
		}
		if (uri.getRawUserInfo() != null) {
			throw new RefusedDestination(
					"must not carry credentials (user:password@); authenticate the " + "deliveries by their signature");
		}
		String host = (uri.getHost() != null) ? uri.getHost().toLowerCase(Locale.ROOT) : null;
		if (host == null || host.isEmpty()) {
			throw new RefusedDestination("has no host");
		}
		if (uri.getRawFragment() != null) {
			throw new RefusedDestination("must not have a fragment (#...)");
		}
		if (!this.allowedHosts.isEmpty()
				&& this.allowedHosts.stream().noneMatch((allowed) -> hostMatches(allowed, host))) {
			throw new RefusedDestination("names host " + host
					+ ", which is not among the operator's allowed webhook hosts (drivequal.webhooks.destinations.allowed-hosts)");
		}
		InetAddress[] addresses;
		try {
			addresses = InetAddress.getAllByName(unbracketed(host));
		}
		catch (UnknownHostException ex) {
			throw new RefusedDestination("names host " + host + ", which does not resolve");
		}
		for (InetAddress address : addresses) {
			String literal = address.getHostAddress();
			if (this.allowed.stream().anyMatch((network) -> network.matches(literal))) {
				continue;
			}
			for (Network network : this.denied) {
				if (network.matches(literal)) {
					throw new RefusedDestination("names host " + host + ", which resolves to " + literal + " in "
							+ network.cidr() + " (" + describe(network) + "), refused by the operator's webhook "
							+ "destination policy (drivequal.webhooks.destinations)");
				}
			}
		}
		return uri;
	}

	private static String describe(Network network) {
		if (!network.source().equals("built-in")) {
			return "drivequal.webhooks.destinations." + network.source();
		}
		return switch (network.cidr()) {
			case "127.0.0.0/8", "::1/128" -> "loopback";
			case "169.254.0.0/16", "fe80::/10" -> "link-local, where cloud metadata services answer";
			case "100.100.100.200/32", "192.0.0.192/32", "fd00:ec2::254/128" -> "a cloud metadata address";
			case "224.0.0.0/4", "ff00::/8", "255.255.255.255/32" -> "multicast or broadcast";
			default -> "unspecified address";
		};
	}

	private static boolean hostMatches(String pattern, String host) {
		return pattern.startsWith("*.") ? host.endsWith(pattern.substring(1)) : pattern.equals(host);
	}

	private static String unbracketed(String host) {
		return (host.startsWith("[") && host.endsWith("]")) ? host.substring(1, host.length() - 1) : host;
	}

	/** A CIDR block and the setting it came from. */
	private record Network(String cidr, String source, IpAddressMatcher matcher) {

		static Network of(String cidr, String source) {
			try {
				return new Network(cidr, source, new IpAddressMatcher(cidr));
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalStateException(
						"drivequal.webhooks.destinations." + source + ": " + cidr + " is not an IP network (CIDR)", ex);
			}
		}

		boolean matches(String address) {
			return this.matcher.matches(address);
		}

	}

}
