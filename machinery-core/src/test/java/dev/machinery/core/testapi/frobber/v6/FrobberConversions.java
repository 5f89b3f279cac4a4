package dev.machinery.core.testapi.frobber.v6;

import dev.machinery.conversion.ConversionScope;
import dev.machinery.conversion.ConvertsProperties;
import java.util.ArrayList;
import java.util.List;

/**
 * The hand-written half of Frobber v6's conversions: the old fields take precedence over their inch
 * twins, and param + extraParams carry the internal params list.
 */
public final class FrobberConversions {
  private FrobberConversions() {}

  @ConvertsProperties({"heightInInches", "widthInInches", "param", "extraParams"})
  public static dev.machinery.core.testapi.frobber.internal.Frobber
      convertV6FrobberToInternalFrobber(Frobber in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    dev.machinery.core.testapi.frobber.internal.Frobber out =
        GeneratedConversions.autoConvertV6FrobberToInternalFrobber(in, scope);
    out.setHeight(firstSet(in.getHeight(), in.getHeightInInches()));
    out.setWidth(firstSet(in.getWidth(), in.getWidthInInches()));
    if (in.getParam() != null || in.getExtraParams() != null) {
      List<String> params = new ArrayList<>();
      if (in.getParam() != null) {
        params.add(in.getParam());
      }
      if (in.getExtraParams() != null) {
        params.addAll(in.getExtraParams());
      }
      out.setParams(params);
    }
    return out;
  }

  @ConvertsProperties("params")
  public static Frobber convertInternalFrobberToV6Frobber(
      dev.machinery.core.testapi.frobber.internal.Frobber in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    Frobber out = GeneratedConversions.autoConvertInternalFrobberToV6Frobber(in, scope);
    out.setHeightInInches(in.getHeight());
    out.setWidthInInches(in.getWidth());
    List<String> params = in.getParams();
    if (params != null && !params.isEmpty()) {
      out.setParam(params.get(0));
      if (params.size() > 1) {
        out.setExtraParams(new ArrayList<>(params.subList(1, params.size())));
      }
    }
    return out;
  }

  /** The defaulting pass: each of a pair of duplicate fields is set from the other. */
  public static void setDefaults(Frobber frobber) {
    if (frobber.getHeight() == null) {
      frobber.setHeight(frobber.getHeightInInches());
    }
    if (frobber.getHeightInInches() == null) {
      frobber.setHeightInInches(frobber.getHeight());
    }
    if (frobber.getWidth() == null) {
      frobber.setWidth(frobber.getWidthInInches());
    }
    if (frobber.getWidthInInches() == null) {
      frobber.setWidthInInches(frobber.getWidth());
    }
  }

  private static int firstSet(Integer old, Integer renamed) {
    return old != null ? old : renamed != null ? renamed : 0;
  }
}
