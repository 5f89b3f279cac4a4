package dev.machinery.conversion.processor.shapes.v1;

import dev.machinery.conversion.ConversionScope;
import dev.machinery.conversion.ConvertsProperties;

/** Hand-written conversions of the shapes API v1, found by their names. */
public final class GadgetConversions {
  private GadgetConversions() {}

  @ConvertsProperties("size")
  public static dev.machinery.conversion.processor.shapes.internal.Gadget
      convertV1GadgetToInternalGadget(Gadget in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    String[] parts = in.size() == null ? new String[0] : in.size().split("x", -1);
    try {
      if (parts.length == 2) {
        return new dev.machinery.conversion.processor.shapes.internal.Gadget(
            Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw scope.fail("size \"" + in.size() + "\" is not WIDTHxHEIGHT");
  }

  @ConvertsProperties({"width", "height"})
  public static Gadget convertInternalGadgetToV1Gadget(
      dev.machinery.conversion.processor.shapes.internal.Gadget in, ConversionScope scope) {
    return in == null ? null : new Gadget(in.width() + "x" + in.height());
  }
}
