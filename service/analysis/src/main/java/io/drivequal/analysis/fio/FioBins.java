// fio's completion-latency histogram bins (stat.h FIO_IO_U_PLAT_*): bin index to nanoseconds, as fio computes it.
package io.drivequal.analysis.fio;

/**
 * fio 3.x keeps 29 groups of 64 bins (1856 bins, values in ns): bins 0..127 are exact,
 * then each power of two is split into 64 bins. A histogram log with coarseness c sums
 * 2^c adjacent bins per column.
 */
final class FioBins {

	static final int PLAT_BITS = 6;

	static final int PLAT_VAL = 1 << PLAT_BITS;

	static final int PLAT_GROUP_NR = 29;

	static final int PLAT_NR = PLAT_GROUP_NR * PLAT_VAL;

	static final int MAX_COARSENESS = 6;

	private FioBins() {
	}

	/**
	 * Coarseness of a histogram log line from its number of bins.
	 * @param binCount columns after time, direction and block size
	 * @return c with 1856 / 2^c == binCount, or -1 if none
	 */
	static int coarsenessOf(int binCount) {
		for (int coarseness = 0; coarseness <= MAX_COARSENESS; coarseness++) {
			if (PLAT_NR >> coarseness == binCount) {
				return coarseness;
			}
		}
		return -1;
	}

	/**
	 * Lowest latency of a fine bin.
	 * @param index 0..1856 (1856 gives the upper end of the last bin)
	 * @return ns
	 */
	static long lowerEdgeNs(int index) {
		if (index < (PLAT_VAL << 1)) {
			return index;
		}
		int errorBits = (index >> PLAT_BITS) - 1;
		long base = 1L << (errorBits + PLAT_BITS);
		long k = index % PLAT_VAL;
		return base + (k << errorBits);
	}

	/**
	 * The value fio assigns to a (coarse) bin: the midpoint of its range, truncated,
	 * which for coarseness 0 is exactly fio's plat_idx_to_val().
	 * @param coarseIndex column index in the log line
	 * @param coarseness c
	 * @return ns
	 */
	static long valueNs(int coarseIndex, int coarseness) {
		int first = coarseIndex << coarseness;
		int end = first + (1 << coarseness);
		long low = lowerEdgeNs(first);
		long high = lowerEdgeNs(end);
		return low + (high - low) / 2;
	}

}
