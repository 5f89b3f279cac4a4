package dev.machinery.examples.frobber.v6;

import dev.machinery.conversion.ConversionScope;
import dev.machinery.conversion.ConvertsProperties;
import java.util.ArrayList;
import java.util.List;

/**
 * The hand-written part of v6's conversions, api-changes.md's rule: v6 keeps the first param in
 * {@code param} and the others in {@code params}; the internal form (and v7beta1) keep them all in
 * one list, so that an object written in v7beta1 and stored in v6 loses none. Stateless.
 */
public final class FrobberConversions {
  private FrobberConversions() {}

  /**
   * Converts a v6 Frobber to the internal form: {@code params} is {@code param} followed by the
   * extra params.
   *
   * @param in the v6 frobber, or {@code null}
   * @param scope the conversion scope
   * @return the internal frobber
   */
  @ConvertsProperties({"param", "extraParams"})
  public static dev.machinery.examples.frobber.internal.Frobber convertV6FrobberToInternalFrobber(
      Frobber in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    dev.machinery.examples.frobber.internal.Frobber out =
        GeneratedConversions.autoConvertV6FrobberToInternalFrobber(in, scope);
    List<String> params = new ArrayList<>();
    if (in.getParam() != null && !in.getParam().isEmpty()) {
      params.add(in.getParam());
    }
    if (in.getExtraParams() != null) {
      params.addAll(in.getExtraParams());
    }
    out.setParams(params.isEmpty() ? null : params);
    return out;
  }

  /**
   * Converts an internal Frobber to v6: the first param to {@code param}, the rest to {@code
   * params}.
   *
   * @param in the internal frobber, or {@code null}
   * @param scope the conversion scope
   * @return the v6 frobber
   */
  @ConvertsProperties("params")
  public static Frobber convertInternalFrobberToV6Frobber(
      dev.machinery.examples.frobber.internal.Frobber in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    Frobber out = GeneratedConversions.autoConvertInternalFrobberToV6Frobber(in, scope);
    List<String> params = in.getParams();
    if (params != null && !params.isEmpty()) {
      out.setParam(params.get(0));
      out.setExtraParams(
          params.size() > 1 ? new ArrayList<>(params.subList(1, params.size())) : null);
    }
    return out;
  }
}
