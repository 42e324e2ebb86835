// fio's size option read the way fio reads it, so an imported job's tested range is the region fio really addressed.
package io.drivequal.analysis.fio;

import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fio {@code size}: an absolute size with an optional k/m/g/t/p suffix (powers of 1024,
 * fio's default {@code kb_base}; "KiB" and "kB" spellings alike), or a percentage of the
 * device ({@code 75%}).
 *
 * @param bytes the absolute size, when given as one
 * @param percent the percentage of the device, when given as one
 */
record FioSize(OptionalLong bytes, OptionalDouble percent) {

	private static final Pattern ABSOLUTE = Pattern.compile("(\\d+)\\s*([kmgtp]?)(i?b?)");

	private static final Pattern PERCENT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*%");

	/**
	 * @param option the option's value as fio's JSON prints it
	 * @return the size, or null when fio's text is not one of the two forms
	 */
	static FioSize parse(String option) {
		String text = option.strip().toLowerCase(Locale.ROOT);
		Matcher percent = PERCENT.matcher(text);
		if (percent.matches()) {
			double value = Double.parseDouble(percent.group(1));
			return (value > 0 && value <= 100) ? new FioSize(OptionalLong.empty(), OptionalDouble.of(value)) : null;
		}
		Matcher absolute = ABSOLUTE.matcher(text);
		if (!absolute.matches()) {
			return null;
		}
		int power = absolute.group(2).isEmpty() ? 0 : "kmgtp".indexOf(absolute.group(2)) + 1;
		try {
			long bytes = Math.multiplyExact(Long.parseLong(absolute.group(1)), 1L << (10 * power));
			return (bytes > 0) ? new FioSize(OptionalLong.of(bytes), OptionalDouble.empty()) : null;
		}
		catch (ArithmeticException | NumberFormatException ex) {
			return null;
		}
	}

}
