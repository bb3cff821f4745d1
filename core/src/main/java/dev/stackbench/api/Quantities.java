package dev.stackbench.api;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.regex.Pattern;

/** Kubernetes CPU and memory quantities as numbers. */
public final class Quantities {

    private static final Pattern CPU = Pattern.compile(SpecRules.CPU_PATTERN);
    private static final Pattern MEMORY = Pattern.compile(SpecRules.MEMORY_PATTERN);

    private Quantities() {}

    public static boolean isValidCpu(String text) {
        return text != null && CPU.matcher(text).matches();
    }

    /** True when {@link #memoryBytes} reads the text: the pattern, and at most {@link Long#MAX_VALUE} bytes. */
    public static boolean isValidMemory(String text) {
        return text != null && MEMORY.matcher(text).matches() && fitsInLong(bytes(text));
    }

    /** CPU in cores, e.g. "500m" -> 0.5, "2" -> 2. */
    public static double cpuCores(String text) {
        if (!isValidCpu(text)) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a CPU quantity: write cores or millicores," + " e.g. 2, 1.5 or 500m");
        }
        return Quantity.getAmountInBytes(new Quantity(text)).doubleValue();
    }

    /** Memory in bytes, e.g. "1Gi" -> 1073741824. */
    public static long memoryBytes(String text) {
        if (text == null || !MEMORY.matcher(text).matches()) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a memory quantity: write e.g. 1Gi, 512Mi or" + " 2G");
        }
        BigDecimal bytes = bytes(text);
        if (!fitsInLong(bytes)) {
            throw new IllegalArgumentException(
                    "'" + text + "' is larger than any memory a pod can have: write e.g." + " 1Gi, 512Mi or 2G");
        }
        return bytes.longValue();
    }

    private static BigDecimal bytes(String text) {
        return Quantity.getAmountInBytes(new Quantity(text)).setScale(0, RoundingMode.CEILING);
    }

    private static boolean fitsInLong(BigDecimal whole) {
        return whole.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
    }
}
