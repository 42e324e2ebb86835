/*
 * /api/v1/drives: the inventory from runner heartbeats, with each drive's qualification history.
 */
package io.drivequal.service.drives;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import io.drivequal.service.platform.NotFoundException;
import io.drivequal.service.qualification.DriveHistory;
import io.drivequal.service.qualification.QualificationView;
import io.drivequal.service.runners.Drive;
import io.drivequal.service.runners.Runner;
import io.drivequal.service.runners.RunnerRegistry;
import io.swagger.v3.oas.annotations.media.Schema;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/drives")
class DriveController {

	private final RunnerRegistry registry;

	private final DriveHistory history;

	DriveController(RunnerRegistry registry, DriveHistory history) {
		this.registry = registry;
		this.history = history;
	}

	/** Named apart from the job's own DriveView, whose simple name it shares. */
	@Schema(name = "InventoryEntry")
	record DriveView(Drive drive, boolean runnerAlive) {
	}

	record DriveDetail(Drive drive, boolean runnerAlive, List<QualificationView> qualifications) {
	}

	/**
	 * Two round trips whatever the fleet's size: the drives are searched once, and their
	 * runners read once, not once per drive (that made this the slowest request of the
	 * fault suite's load test). The runners are read by id, which Elasticsearch answers
	 * in real time: a search would see a runner only after its index's next refresh, so a
	 * drive from a runner's first heartbeat (written in the same bulk) could be listed
	 * with its runner not yet found, and so not alive.
	 */
	@GetMapping
	List<DriveView> drives() {
		List<Drive> drives = this.registry.drives();
		Map<String, Runner> runners = this.registry
			.runners(drives.stream().map(Drive::runnerId).filter(Objects::nonNull).collect(Collectors.toSet()));
		return drives.stream().map((drive) -> {
			Runner runner = runners.get(drive.runnerId());
			return new DriveView(drive, runner != null && this.registry.isAlive(runner));
		}).toList();
	}

	@GetMapping("/{serial}")
	DriveDetail drive(@PathVariable String serial) {
		Drive drive = this.registry.drive(serial)
			.orElseThrow(() -> new NotFoundException("no runner has reported drive " + serial));
		return new DriveDetail(drive, this.registry.isAlive(drive.runnerId()), this.history.of(serial));
	}

}
