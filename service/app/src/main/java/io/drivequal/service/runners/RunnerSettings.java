/*
 * When a runner counts as lost.
 */
package io.drivequal.service.runners;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * @param heartbeatTimeout a runner silent this long is lost: its jobs become INTERRUPTED.
 * With the sweep every 2 s, a runner that dies right after a heartbeat loses its jobs
 * within 22 s (the promise is 30 s)
 * @param maxHeartbeatSize a heartbeat lists up to 256 drives; anything larger is poison
 * @param resumeGrace a RUNNING job whose runner is silent longer than the heartbeat
 * timeout but comes back within this long (a restart, a short network loss) resumes
 * instead of being INTERRUPTED; its drive stays leased meanwhile. Zero: no resume,
 * INTERRUPTED after the heartbeat timeout as before
 */
@ConfigurationProperties("drivequal.runners")
record RunnerSettings(@DefaultValue("20s") Duration heartbeatTimeout, @DefaultValue("1MB") DataSize maxHeartbeatSize,
		@DefaultValue("5m") Duration resumeGrace) {
}
