/*
 * A power-cycle phase's plan, in the contract's powerCycleSpec form
 * (schemas/messages/common.schema.json): carried from the plan to the runner unchanged; the
 * runner refuses a plan whose power driver it does not have before anything is written.
 */
package io.drivequal.service.catalog;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * @param powerDriver what cuts the drive's power (sim: the simulated drive's own;
 * pci-slot: the host's PCIe slot power; redfish: a BMC's reset action; ipmi: a BMC's
 * chassis power over IPMI LAN; pdu: a switched PDU's outlet over SNMP; none: no driver,
 * which the runner refuses)
 * @param cycles power cycles to run
 * @param writesPerCycle acknowledged writes a cycle aims at
 * @param flushEvery a flush after this many acknowledged writes (absent: never)
 * @param cutAfterWrites the cut's point in acknowledged writes (absent: random)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PowerCycleSpec(String powerDriver, Integer cycles, Integer writesPerCycle, Integer flushEvery,
		Integer cutAfterWrites) {

	/**
	 * Writes, flushes and a cut per cycle: a power-cycle phase this long per cycle at
	 * most.
	 */
	public long nominalS() {
		return (this.cycles != null) ? this.cycles * 2L : 0;
	}

}
