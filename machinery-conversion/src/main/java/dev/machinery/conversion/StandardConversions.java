package dev.machinery.conversion;

/**
 * Hand-written conversions between boxed and primitive values, for generated code to use where one
 * version has an optional field ({@code Integer replicas}) and the internal form a plain one
 * ({@code int replicas}), as Kubernetes' {@code Convert_Pointer_int32_To_int32}. Name this class in
 * {@link GenerateConversions#uses()} to let the generator use them.
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class StandardConversions {
  private StandardConversions() {}

  /**
   * Returns these conversions as a registration, for a {@link Converter} whose generic conversions
   * need them (generated code calls them directly).
   *
   * @return the registration of the four conversions
   */
  public static ConversionRegistration registration() {
    return builder ->
        builder
            .addConversion(Integer.class, int.class, StandardConversions::convertIntegerToInt)
            .addConversion(Long.class, long.class, StandardConversions::convertLongToLong)
            .addConversion(
                Boolean.class, boolean.class, StandardConversions::convertBooleanToBoolean)
            .addConversion(Double.class, double.class, StandardConversions::convertDoubleToDouble);
  }

  /**
   * Converts an optional {@code Integer} to an {@code int}: {@code null} becomes {@code 0}.
   *
   * @param in the value, possibly {@code null}
   * @param scope the scope (unused)
   * @return the value, or {@code 0}
   */
  public static int convertIntegerToInt(Integer in, ConversionScope scope) {
    return in == null ? 0 : in;
  }

  /**
   * Converts an optional {@code Long} to a {@code long}: {@code null} becomes {@code 0}.
   *
   * @param in the value, possibly {@code null}
   * @param scope the scope (unused)
   * @return the value, or {@code 0}
   */
  public static long convertLongToLong(Long in, ConversionScope scope) {
    return in == null ? 0L : in;
  }

  /**
   * Converts an optional {@code Boolean} to a {@code boolean}: {@code null} becomes {@code false}.
   *
   * @param in the value, possibly {@code null}
   * @param scope the scope (unused)
   * @return the value, or {@code false}
   */
  public static boolean convertBooleanToBoolean(Boolean in, ConversionScope scope) {
    return in != null && in;
  }

  /**
   * Converts an optional {@code Double} to a {@code double}: {@code null} becomes {@code 0}.
   *
   * @param in the value, possibly {@code null}
   * @param scope the scope (unused)
   * @return the value, or {@code 0}
   */
  public static double convertDoubleToDouble(Double in, ConversionScope scope) {
    return in == null ? 0.0 : in;
  }
}
