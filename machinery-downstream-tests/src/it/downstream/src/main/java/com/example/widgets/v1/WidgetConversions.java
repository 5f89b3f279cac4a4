package com.example.widgets.v1;

import dev.machinery.conversion.ConversionScope;
import dev.machinery.conversion.ConvertsProperties;

/** The hand-written part of v1's conversions: v1 calls the maintainer "owner". */
public final class WidgetConversions {
  private WidgetConversions() {}

  @ConvertsProperties("owner")
  public static com.example.widgets.internal.WidgetSpec convertV1WidgetSpecToInternalWidgetSpec(
      WidgetSpec in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    com.example.widgets.internal.WidgetSpec out =
        GeneratedConversions.autoConvertV1WidgetSpecToInternalWidgetSpec(in, scope);
    out.setMaintainer(in.getOwner());
    return out;
  }

  @ConvertsProperties("maintainer")
  public static WidgetSpec convertInternalWidgetSpecToV1WidgetSpec(
      com.example.widgets.internal.WidgetSpec in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    WidgetSpec out = GeneratedConversions.autoConvertInternalWidgetSpecToV1WidgetSpec(in, scope);
    out.setOwner(in.getMaintainer());
    return out;
  }
}
