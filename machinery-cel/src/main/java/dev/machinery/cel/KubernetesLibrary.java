package dev.machinery.cel;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.resource.QuantityFormatException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The functions Kubernetes adds to CEL for validation rules, beside CEL's standard library and the
 * strings extension: the list library ({@code isSorted}, {@code sum}, {@code min}, {@code max},
 * {@code indexOf}, {@code lastIndexOf}), the regex library ({@code find}, {@code findAll}), the URL
 * library ({@code url}, {@code isURL} and the {@code URL} accessors), the quantity library, and,
 * from {@link IpCidrLibrary}, {@link FormatLibrary} and {@link SemverLibrary}, the {@code ip},
 * {@code cidr}, {@code format} and {@code semver} libraries. Regular expressions are RE2 (re2j), as
 * Go's, so matching takes linear time. Stateless.
 */
final class KubernetesLibrary {
  static final OpaqueType URL = OpaqueType.create("kubernetes.URL");
  static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");
  private static final TypeParamType T = TypeParamType.create("T");
  private static final ListType LIST_T = ListType.create(T);

  private KubernetesLibrary() {}

  /** A parsed URL, the runtime value of {@code kubernetes.URL}. */
  record Url(URI uri) {}

  /**
   * The declarations of every Kubernetes library, overloads of one name (Kubernetes' and the {@code
   * ip}, {@code cidr}, {@code format} and {@code semver} libraries') merged into one function.
   *
   * @param semver whether to declare the {@code semver} library
   */
  static List<CelFunctionDecl> declarations(boolean semver) {
    Map<String, List<CelOverloadDecl>> overloads = new LinkedHashMap<>();
    List<CelFunctionDecl> all = new ArrayList<>(ownDeclarations());
    all.addAll(IpCidrLibrary.declarations());
    all.addAll(FormatLibrary.declarations());
    if (semver) {
      all.addAll(SemverLibrary.declarations());
    }
    for (CelFunctionDecl decl : all) {
      overloads.computeIfAbsent(decl.name(), n -> new ArrayList<>()).addAll(decl.overloads());
    }
    List<CelFunctionDecl> out = new ArrayList<>();
    overloads.forEach((name, list) -> out.add(CelFunctionDecl.newFunctionDeclaration(name, list)));
    return out;
  }

  private static List<CelFunctionDecl> ownDeclarations() {
    ListType listString = ListType.create(SimpleType.STRING);
    return List.of(
        fn(
            "isSorted",
            CelOverloadDecl.newMemberOverload("list_is_sorted", SimpleType.BOOL, LIST_T)),
        fn(
            "sum",
            CelOverloadDecl.newMemberOverload(
                "list_int_sum", SimpleType.INT, ListType.create(SimpleType.INT)),
            CelOverloadDecl.newMemberOverload(
                "list_double_sum", SimpleType.DOUBLE, ListType.create(SimpleType.DOUBLE)),
            CelOverloadDecl.newMemberOverload(
                "list_duration_sum", SimpleType.DURATION, ListType.create(SimpleType.DURATION))),
        fn("min", CelOverloadDecl.newMemberOverload("list_min", T, LIST_T)),
        fn("max", CelOverloadDecl.newMemberOverload("list_max", T, LIST_T)),
        fn(
            "indexOf",
            CelOverloadDecl.newMemberOverload("list_index_of", SimpleType.INT, LIST_T, T)),
        fn(
            "lastIndexOf",
            CelOverloadDecl.newMemberOverload("list_last_index_of", SimpleType.INT, LIST_T, T)),
        fn(
            "find",
            CelOverloadDecl.newMemberOverload(
                "string_find_string", SimpleType.STRING, SimpleType.STRING, SimpleType.STRING)),
        fn(
            "findAll",
            CelOverloadDecl.newMemberOverload(
                "string_find_all_string", listString, SimpleType.STRING, SimpleType.STRING),
            CelOverloadDecl.newMemberOverload(
                "string_find_all_string_int",
                listString,
                SimpleType.STRING,
                SimpleType.STRING,
                SimpleType.INT)),
        fn("url", CelOverloadDecl.newGlobalOverload("string_to_url", URL, SimpleType.STRING)),
        fn(
            "isURL",
            CelOverloadDecl.newGlobalOverload("is_url_string", SimpleType.BOOL, SimpleType.STRING)),
        fn(
            "getScheme",
            CelOverloadDecl.newMemberOverload("url_get_scheme", SimpleType.STRING, URL)),
        fn("getHost", CelOverloadDecl.newMemberOverload("url_get_host", SimpleType.STRING, URL)),
        fn(
            "getHostname",
            CelOverloadDecl.newMemberOverload("url_get_hostname", SimpleType.STRING, URL)),
        fn("getPort", CelOverloadDecl.newMemberOverload("url_get_port", SimpleType.STRING, URL)),
        fn(
            "getEscapedPath",
            CelOverloadDecl.newMemberOverload("url_get_escaped_path", SimpleType.STRING, URL)),
        fn(
            "getQuery",
            CelOverloadDecl.newMemberOverload(
                "url_get_query", MapType.create(SimpleType.STRING, listString), URL)),
        fn(
            "quantity",
            CelOverloadDecl.newGlobalOverload("string_to_quantity", QUANTITY, SimpleType.STRING)),
        fn(
            "isQuantity",
            CelOverloadDecl.newGlobalOverload(
                "is_quantity_string", SimpleType.BOOL, SimpleType.STRING)),
        fn("sign", CelOverloadDecl.newMemberOverload("quantity_sign", SimpleType.INT, QUANTITY)),
        fn(
            "isInteger",
            CelOverloadDecl.newMemberOverload("quantity_is_integer", SimpleType.BOOL, QUANTITY)),
        fn(
            "asInteger",
            CelOverloadDecl.newMemberOverload("quantity_as_integer", SimpleType.INT, QUANTITY)),
        fn(
            "asApproximateFloat",
            CelOverloadDecl.newMemberOverload(
                "quantity_as_approximate_float", SimpleType.DOUBLE, QUANTITY)),
        fn(
            "add",
            CelOverloadDecl.newMemberOverload("quantity_add", QUANTITY, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload(
                "quantity_add_int", QUANTITY, QUANTITY, SimpleType.INT)),
        fn(
            "sub",
            CelOverloadDecl.newMemberOverload("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload(
                "quantity_sub_int", QUANTITY, QUANTITY, SimpleType.INT)),
        fn(
            "isLessThan",
            CelOverloadDecl.newMemberOverload(
                "quantity_less_than", SimpleType.BOOL, QUANTITY, QUANTITY)),
        fn(
            "isGreaterThan",
            CelOverloadDecl.newMemberOverload(
                "quantity_greater_than", SimpleType.BOOL, QUANTITY, QUANTITY)),
        fn(
            "compareTo",
            CelOverloadDecl.newMemberOverload(
                "quantity_compare_to", SimpleType.INT, QUANTITY, QUANTITY)));
  }

  private static CelFunctionDecl fn(String name, CelOverloadDecl... overloads) {
    return CelFunctionDecl.newFunctionDeclaration(name, overloads);
  }

  static List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> out = new ArrayList<>();
    out.add(CelFunctionBinding.from("list_is_sorted", List.class, KubernetesLibrary::isSorted));
    out.add(
        CelFunctionBinding.from(
            "list_int_sum",
            List.class,
            list -> {
              long sum = 0;
              for (Object item : list) {
                sum = Math.addExact(sum, (Long) item);
              }
              return sum;
            }));
    out.add(
        CelFunctionBinding.from(
            "list_double_sum",
            List.class,
            list -> {
              double sum = 0;
              for (Object item : list) {
                sum += (Double) item;
              }
              return sum;
            }));
    out.add(
        CelFunctionBinding.from(
            "list_duration_sum",
            List.class,
            list -> {
              java.time.Duration sum = java.time.Duration.ZERO;
              for (Object item : list) {
                sum = sum.plus((java.time.Duration) item);
              }
              return sum;
            }));
    out.add(CelFunctionBinding.from("list_min", List.class, list -> extreme(list, "min", -1)));
    out.add(CelFunctionBinding.from("list_max", List.class, list -> extreme(list, "max", 1)));
    out.add(
        CelFunctionBinding.from(
            "list_index_of", List.class, Object.class, (list, item) -> (long) list.indexOf(item)));
    out.add(
        CelFunctionBinding.from(
            "list_last_index_of",
            List.class,
            Object.class,
            (list, item) -> (long) list.lastIndexOf(item)));
    out.add(
        CelFunctionBinding.from(
            "string_find_string",
            String.class,
            String.class,
            (text, regex) -> {
              Matcher m = compile(regex).matcher(text);
              return m.find() ? m.group() : "";
            }));
    out.add(
        CelFunctionBinding.from(
            "string_find_all_string",
            String.class,
            String.class,
            (text, regex) -> findAll(text, regex, -1)));
    out.add(
        CelFunctionBinding.from(
            "string_find_all_string_int",
            ImmutableList.of(String.class, String.class, Long.class),
            args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
    out.add(CelFunctionBinding.from("string_to_url", String.class, KubernetesLibrary::url));
    out.add(CelFunctionBinding.from("is_url_string", String.class, KubernetesLibrary::isUrl));
    out.add(
        CelFunctionBinding.from("url_get_scheme", Url.class, u -> nonNull(u.uri().getScheme())));
    out.add(CelFunctionBinding.from("url_get_host", Url.class, KubernetesLibrary::host));
    out.add(
        CelFunctionBinding.from(
            "url_get_hostname",
            Url.class,
            u -> {
              String host = nonNull(u.uri().getHost());
              return host.startsWith("[") && host.endsWith("]")
                  ? host.substring(1, host.length() - 1)
                  : host;
            }));
    out.add(
        CelFunctionBinding.from(
            "url_get_port",
            Url.class,
            u -> u.uri().getPort() < 0 ? "" : Integer.toString(u.uri().getPort())));
    out.add(
        CelFunctionBinding.from(
            "url_get_escaped_path", Url.class, u -> nonNull(u.uri().getRawPath())));
    out.add(CelFunctionBinding.from("url_get_query", Url.class, KubernetesLibrary::query));
    out.add(
        CelFunctionBinding.from("string_to_quantity", String.class, KubernetesLibrary::quantity));
    out.add(
        CelFunctionBinding.from(
            "is_quantity_string",
            String.class,
            text -> {
              try {
                Quantity.parse(text);
                return true;
              } catch (QuantityFormatException e) {
                return false;
              }
            }));
    out.add(CelFunctionBinding.from("quantity_sign", Quantity.class, q -> (long) q.signum()));
    out.add(
        CelFunctionBinding.from(
            "quantity_is_integer", Quantity.class, KubernetesLibrary::isIntegerQuantity));
    out.add(
        CelFunctionBinding.from(
            "quantity_as_integer",
            Quantity.class,
            q -> {
              if (!isIntegerQuantity(q)) {
                throw new CelEvaluationException("cannot convert value to integer");
              }
              return q.value();
            }));
    out.add(
        CelFunctionBinding.from(
            "quantity_as_approximate_float", Quantity.class, q -> q.amount().doubleValue()));
    out.add(CelFunctionBinding.from("quantity_add", Quantity.class, Quantity.class, Quantity::add));
    out.add(
        CelFunctionBinding.from(
            "quantity_add_int",
            Quantity.class,
            Long.class,
            (q, n) -> q.add(Quantity.of(n, q.format()))));
    out.add(
        CelFunctionBinding.from(
            "quantity_sub", Quantity.class, Quantity.class, Quantity::subtract));
    out.add(
        CelFunctionBinding.from(
            "quantity_sub_int",
            Quantity.class,
            Long.class,
            (q, n) -> q.subtract(Quantity.of(n, q.format()))));
    out.add(
        CelFunctionBinding.from(
            "quantity_less_than", Quantity.class, Quantity.class, (a, b) -> a.compareTo(b) < 0));
    out.add(
        CelFunctionBinding.from(
            "quantity_greater_than", Quantity.class, Quantity.class, (a, b) -> a.compareTo(b) > 0));
    out.add(
        CelFunctionBinding.from(
            "quantity_compare_to",
            Quantity.class,
            Quantity.class,
            (a, b) -> (long) Integer.signum(a.compareTo(b))));
    out.addAll(IpCidrLibrary.bindings());
    out.addAll(FormatLibrary.bindings());
    out.addAll(SemverLibrary.bindings());
    return out;
  }

  private static Object isSorted(List<?> list) throws CelEvaluationException {
    for (int i = 1; i < list.size(); i++) {
      if (compare(list.get(i - 1), list.get(i)) > 0) {
        return false;
      }
    }
    return true;
  }

  private static Object extreme(List<?> list, String name, int sign) throws CelEvaluationException {
    if (list.isEmpty()) {
      throw new CelEvaluationException(name + " called on empty list");
    }
    Object best = list.get(0);
    for (Object item : list) {
      if (compare(item, best) * sign > 0) {
        best = item;
      }
    }
    return best;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) throws CelEvaluationException {
    if (a instanceof Number x && b instanceof Number y && a.getClass() != b.getClass()) {
      return Double.compare(x.doubleValue(), y.doubleValue());
    }
    if (a instanceof Comparable ca && a.getClass() == b.getClass()) {
      return ca.compareTo(b);
    }
    throw new CelEvaluationException("no such overload");
  }

  private static Pattern compile(String regex) throws CelEvaluationException {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new CelEvaluationException("invalid regex: " + e.getMessage());
    }
  }

  private static Object findAll(String text, String regex, long limit)
      throws CelEvaluationException {
    Matcher m = compile(regex).matcher(text);
    List<String> found = new ArrayList<>();
    while ((limit < 0 || found.size() < limit) && m.find()) {
      found.add(m.group());
    }
    return found;
  }

  private static Url parse(String text) {
    if (text.isEmpty()) {
      return null;
    }
    try {
      URI uri = new URI(text);
      // Kubernetes' url() takes absolute URIs and absolute paths, as Go's url.ParseRequestURI.
      if (!uri.isAbsolute() && !text.startsWith("/")) {
        return null;
      }
      return new Url(uri);
    } catch (URISyntaxException e) {
      return null;
    }
  }

  private static Object url(String text) throws CelEvaluationException {
    Url url = parse(text);
    if (url == null) {
      throw new CelEvaluationException("URL parse error during conversion from string: " + text);
    }
    return url;
  }

  private static Object isUrl(String text) {
    return parse(text) != null;
  }

  private static Object host(Url url) {
    String host = nonNull(url.uri().getHost());
    return url.uri().getPort() < 0 ? host : host + ":" + url.uri().getPort();
  }

  private static Object query(Url url) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    String raw = url.uri().getRawQuery();
    if (raw != null && !raw.isEmpty()) {
      for (String pair : raw.split("&", -1)) {
        int eq = pair.indexOf('=');
        String key = decode(eq < 0 ? pair : pair.substring(0, eq));
        String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
        out.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
      }
    }
    return ImmutableMap.copyOf(out);
  }

  private static String decode(String text) {
    try {
      return java.net.URLDecoder.decode(text, java.nio.charset.StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }

  private static Object quantity(String text) throws CelEvaluationException {
    try {
      return Quantity.parse(text);
    } catch (QuantityFormatException e) {
      throw new CelEvaluationException(
          "quantities must match the regular expression"
              + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    }
  }

  private static boolean isIntegerQuantity(Quantity q) {
    java.math.BigDecimal amount = q.amount();
    return amount.signum() == 0
        || amount.stripTrailingZeros().scale() <= 0
            && amount.abs().compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
  }

  private static String nonNull(String text) {
    return text == null ? "" : text;
  }

  static CelType urlType() {
    return URL;
  }
}
