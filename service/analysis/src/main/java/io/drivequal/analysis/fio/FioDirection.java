// fio's data directions, with the numbers its logs use and the keys its JSON uses.
package io.drivequal.analysis.fio;

/** A data direction: 0 read, 1 write, 2 trim in fio's logs. */
public enum FioDirection {

	READ(0, "read"), WRITE(1, "write"), TRIM(2, "trim");

	private final int ddir;

	private final String jsonKey;

	FioDirection(int ddir, String jsonKey) {
		this.ddir = ddir;
		this.jsonKey = jsonKey;
	}

	/**
	 * The direction of a log's ddir column.
	 * @param ddir 0, 1 or 2
	 * @return the direction, or null for any other number
	 */
	static FioDirection ofDdir(long ddir) {
		for (FioDirection direction : values()) {
			if (direction.ddir == ddir) {
				return direction;
			}
		}
		return null;
	}

	public int ddir() {
		return this.ddir;
	}

	/**
	 * The key of this direction in a fio JSON job: "read", "write" or "trim".
	 * @return the key
	 */
	public String jsonKey() {
		return this.jsonKey;
	}

}
