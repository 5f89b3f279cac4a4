package dev.machinery.cel;

import com.google.re2j.Pattern;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.Validation;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One of the string formats of Kubernetes' CEL {@code format} library, the runtime value of {@code
 * kubernetes.NamedFormat}: {@code format.dns1123Label()}, {@code format.named("uuid")} and the
 * others, each with its check and the messages Kubernetes gives. Two formats are equal when they
 * are the same format. Immutable.
 */
final class NamedFormat {
  private static final Pattern UUID =
      Pattern.compile("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
  private static final Pattern BASE64 =
      Pattern.compile(
          "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$");
  private static final Pattern DATE = Pattern.compile("^([0-9]{4})-([0-9]{2})-([0-9]{2})$");
  private static final Pattern TIME =
      Pattern.compile("^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$");

  /** The formats by the names rules use, in Kubernetes' order. */
  static final Map<String, NamedFormat> FORMATS;

  static {
    Map<String, NamedFormat> formats = new LinkedHashMap<>();
    add(formats, "dns1123Label", "DNS1123Label", s -> Validation.nameIsDNSLabel(s, false));
    add(
        formats,
        "dns1123Subdomain",
        "DNS1123Subdomain",
        s -> Validation.nameIsDNSSubdomain(s, false));
    add(formats, "dns1035Label", "DNS1035Label", s -> Validation.nameIsDNS1035Label(s, false));
    add(formats, "qualifiedName", "QualifiedName", Validation::isQualifiedName);
    add(
        formats,
        "dns1123LabelPrefix",
        "DNS1123LabelPrefix",
        s -> Validation.nameIsDNSLabel(s, true));
    add(
        formats,
        "dns1123SubdomainPrefix",
        "DNS1123SubdomainPrefix",
        s -> Validation.nameIsDNSSubdomain(s, true));
    add(
        formats,
        "dns1035LabelPrefix",
        "DNS1035LabelPrefix",
        s -> Validation.nameIsDNS1035Label(s, true));
    add(formats, "labelValue", "LabelValue", Validation::isValidLabelValue);
    add(formats, "uri", "URI", NamedFormat::uri);
    add(
        formats,
        "uuid",
        "uuid",
        s -> UUID.matches(s) ? List.of() : List.of("does not match the UUID format"));
    add(formats, "byte", "byte", s -> BASE64.matches(s) ? List.of() : List.of("invalid base64"));
    add(formats, "date", "date", s -> isDate(s) ? List.of() : List.of("invalid date"));
    add(
        formats,
        "datetime",
        "datetime",
        s -> isDateTime(s) ? List.of() : List.of("invalid datetime"));
    FORMATS = java.util.Collections.unmodifiableMap(formats);
  }

  private final String function;
  private final String name;
  private final Function<String, List<String>> check;

  private NamedFormat(String function, String name, Function<String, List<String>> check) {
    this.function = function;
    this.name = name;
    this.check = check;
  }

  private static void add(
      Map<String, NamedFormat> formats,
      String function,
      String name,
      Function<String, List<String>> check) {
    formats.put(function, new NamedFormat(function, name, check));
  }

  /** The name of the function that yields this format, such as {@code dns1123Label}. */
  String function() {
    return function;
  }

  /** What is wrong with a value in this format; empty when nothing is. */
  List<String> validate(String value) {
    return check.apply(value);
  }

  /** Go's {@code url.ParseRequestURI}: an absolute URI, or an absolute path. */
  private static List<String> uri(String s) {
    String quoted = FieldError.quote(s);
    if (s.isEmpty()) {
      return List.of("parse " + quoted + ": empty url");
    }
    try {
      URI uri = new URI(s);
      if (!uri.isAbsolute() && !s.startsWith("/")) {
        return List.of("parse " + quoted + ": invalid URI for request");
      }
      return List.of();
    } catch (URISyntaxException e) {
      return List.of("parse " + quoted + ": " + e.getReason());
    }
  }

  /** Go's {@code time.Parse("2006-01-02", s)} succeeds. */
  private static boolean isDate(String s) {
    com.google.re2j.Matcher m = DATE.matcher(s);
    if (!m.matches()) {
      return false;
    }
    try {
      LocalDate.of(
          Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
      return true;
    } catch (DateTimeException e) {
      return false;
    }
  }

  /** kube-openapi's {@code strfmt.IsDateTime}: a date, {@code t}, a time with a zone. */
  private static boolean isDateTime(String s) {
    if (s.length() < 4) {
      return false;
    }
    String[] parts = s.toLowerCase(Locale.ROOT).split("t", -1);
    if (parts.length < 2 || !isDate(parts[0])) {
      return false;
    }
    com.google.re2j.Matcher m = TIME.matcher(parts[1]);
    if (!m.find()) {
      return false;
    }
    return m.group(1).compareTo("23") <= 0
        && m.group(2).compareTo("59") <= 0
        && m.group(3).compareTo("59") <= 0;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof NamedFormat f && f.function.equals(function);
  }

  @Override
  public int hashCode() {
    return function.hashCode();
  }

  @Override
  public String toString() {
    return name;
  }
}
