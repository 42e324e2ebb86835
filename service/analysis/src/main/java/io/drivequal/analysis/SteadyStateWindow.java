// The figures of one evaluated steady-state window: what a report prints next to "reached" or "not reached".
package io.drivequal.analysis;

/**
 * A window of 5 consecutive counted rounds x-4..x.
 *
 * @param firstRoundIndex x - 4, 0-based
 * @param lastRoundIndex x, 0-based: the round at which steady state is reported
 * @param windowStartS (x - 4) * L: the window holds the seconds with windowStartS &lt; t
 * &lt;= windowEndS
 * @param windowEndS (x + 1) * L
 * @param avgIops mean of the 5 round means
 * @param minRoundIops smallest round mean
 * @param maxRoundIops largest round mean
 * @param rangePercent 100 * (max - min) / avg (0 when avg is 0)
 * @param slopeIopsPerRound least-squares slope b of the round means over the round index
 * @param slopeExcursionPercent 100 * |b| * 4 / avg (0 when avg is 0)
 * @param rangeWithinBound max - min &lt;= 0.20 * avg, decided exactly
 * @param slopeWithinBound |b| * 4 &lt;= 0.10 * avg, decided exactly
 */
public record SteadyStateWindow(int firstRoundIndex, int lastRoundIndex, long windowStartS, long windowEndS,
		double avgIops, double minRoundIops, double maxRoundIops, double rangePercent, double slopeIopsPerRound,
		double slopeExcursionPercent, boolean rangeWithinBound, boolean slopeWithinBound) {

	/**
	 * Whether both SNIA criteria hold.
	 * @return true when this window is in steady state
	 */
	public boolean holds() {
		return this.rangeWithinBound && this.slopeWithinBound;
	}

}
