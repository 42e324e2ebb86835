// Free loopback ports, so two checkouts (or two CI jobs) can run their infrastructure side by side.
package io.drivequal.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

final class Ports {

	private Ports() {
	}

	/**
	 * A port that was free a moment ago; the tiny race with other processes is accepted.
	 */
	static int freeLoopbackPort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
