/*
 * The JSON part of POST /api/v1/imports: whose drive the vendor's fio results are from, and what to
 * judge them against.
 */
package io.drivequal.service.imports;

import java.util.List;

import io.drivequal.analysis.Criterion;
import io.drivequal.service.qualification.DriveSpec;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/**
 * @param profile optional catalog profile whose analysis settings (rounds, fixed window)
 * apply
 * @param preconditioning what was done to the drive just before the first imported job,
 * as the vendor states it: "purge-and-fill" (purged, then written sequentially over the
 * range) or "fill" (written sequentially over the range); absent or "unknown": the log's
 * history is unknown and SNIA's published steady-state rules apply, labelled as such
 */
record ImportRequest(@NotNull @Valid ImportedDrive drive, @Size(max = 64) String profile, @Valid DriveSpec spec,
		@Size(max = 64) List<@NotNull Criterion> criteria, @Pattern(regexp = "^(unknown|purge-and-fill|fill)$",
				message = "must be \"purge-and-fill\", \"fill\" or \"unknown\"") String preconditioning) {

	/** Whether the vendor states a purge or fill before the first imported job. */
	boolean preconditioned() {
		return this.preconditioning != null && !"unknown".equals(this.preconditioning);
	}

	record ImportedDrive(@NotBlank @Size(min = 1, max = 64) String serial, @Size(max = 64) String model,
			@Size(max = 16) String firmware, @Positive Long capacityBytes) {
	}

}
