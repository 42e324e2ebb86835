// Why a vendor's fio results cannot be imported, precise enough for the vendor to rerun fio correctly.
package io.drivequal.analysis.fio;

/**
 * fio output that cannot be imported; the message names the file, the line and the fix.
 */
public class FioImportException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public FioImportException(String message) {
		super(message);
	}

	public FioImportException(String message, Throwable cause) {
		super(message, cause);
	}

}
