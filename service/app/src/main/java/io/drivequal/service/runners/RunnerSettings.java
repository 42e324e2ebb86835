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
 */
@ConfigurationProperties("drivequal.runners")
record RunnerSettings(@DefaultValue("20s") Duration heartbeatTimeout, @DefaultValue("1MB") DataSize maxHeartbeatSize) {
}
