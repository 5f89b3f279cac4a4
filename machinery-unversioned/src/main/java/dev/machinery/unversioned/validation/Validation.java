package dev.machinery.unversioned.validation;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Kubernetes' rules for names, label keys and label values ({@code util/validation} and {@code
 * api/validation}), each returning Kubernetes' messages (empty when the value is valid), so that a
 * server answers exactly as kube-apiserver does. Lengths count UTF-8 bytes, as Go's do. The
 * patterns are matched by hand, in one linear pass, so no input makes a check slow.
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class Validation {
  /** The longest DNS-1123 or RFC 1035 label: 63. */
  public static final int DNS1123_LABEL_MAX_LENGTH = 63;

  /** The longest DNS-1123 subdomain: 253. */
  public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

  /** The longest label value, and the longest name part of a qualified name: 63. */
  public static final int LABEL_VALUE_MAX_LENGTH = 63;

  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_SUBDOMAIN_FMT =
      DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
  private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
  private static final String LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final String LABEL_KEY_MESSAGE =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an"
          + " alphanumeric character";

  private Validation() {}

  /**
   * A lowercase RFC 1123 label, such as a namespace name ({@code IsDNS1123Label}).
   *
   * @param value the value
   * @return Kubernetes' messages; empty when valid
   */
  public static List<String> isDNS1123Label(String value) {
    List<String> errors = new ArrayList<>();
    if (bytes(value) > DNS1123_LABEL_MAX_LENGTH) {
      errors.add(maxLenError(DNS1123_LABEL_MAX_LENGTH));
    }
    if (!isLabel(value, false)) {
      if (isSubdomain(value)) {
        errors.add("must not contain dots");
      } else {
        errors.add(
            regexError(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or"
                    + " '-', and must start and end with an alphanumeric character",
                DNS1123_LABEL_FMT,
                "my-name",
                "123-abc"));
      }
    }
    return errors;
  }

  /**
   * A lowercase RFC 1123 subdomain, the rule for most object names ({@code IsDNS1123Subdomain}).
   *
   * @param value the value
   * @return Kubernetes' messages; empty when valid
   */
  public static List<String> isDNS1123Subdomain(String value) {
    List<String> errors = new ArrayList<>();
    if (bytes(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
      errors.add(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if (!isSubdomain(value)) {
      errors.add(
          regexError(
              "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters,"
                  + " '-' or '.', and must start and end with an alphanumeric character",
              DNS1123_SUBDOMAIN_FMT,
              "example.com"));
    }
    return errors;
  }

  /**
   * An RFC 1035 label, the rule for Service names ({@code IsDNS1035Label}).
   *
   * @param value the value
   * @return Kubernetes' messages; empty when valid
   */
  public static List<String> isDNS1035Label(String value) {
    List<String> errors = new ArrayList<>();
    if (bytes(value) > DNS1123_LABEL_MAX_LENGTH) {
      errors.add(maxLenError(DNS1123_LABEL_MAX_LENGTH));
    }
    if (!isLabel(value, true)) {
      errors.add(
          regexError(
              "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start"
                  + " with an alphabetic character, and end with an alphanumeric character",
              DNS1035_LABEL_FMT,
              "my-name",
              "abc-123"));
    }
    return errors;
  }

  /**
   * A qualified name: a label or annotation key, with an optional DNS subdomain prefix and '/'
   * ({@code IsQualifiedName}).
   *
   * @param value the value
   * @return Kubernetes' messages; empty when valid
   */
  public static List<String> isQualifiedName(String value) {
    List<String> errors = new ArrayList<>();
    String[] parts = value.split("/", -1);
    String name;
    if (parts.length == 1) {
      name = parts[0];
    } else if (parts.length == 2) {
      String prefix = parts[0];
      name = parts[1];
      if (prefix.isEmpty()) {
        errors.add("prefix part must be non-empty");
      } else {
        for (String message : isDNS1123Subdomain(prefix)) {
          errors.add("prefix part " + message);
        }
      }
    } else {
      errors.add(
          "a valid label key "
              + regexError(LABEL_KEY_MESSAGE, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")
              + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errors;
    }
    if (name.isEmpty()) {
      errors.add("name part must be non-empty");
    } else if (bytes(name) > LABEL_VALUE_MAX_LENGTH) {
      errors.add("name part " + maxLenError(LABEL_VALUE_MAX_LENGTH));
    }
    if (!isLabelKeyName(name)) {
      errors.add(
          "name part "
              + regexError(LABEL_KEY_MESSAGE, LABEL_KEY_FMT, "MyName", "my.name", "123-abc"));
    }
    return errors;
  }

  /**
   * A label value: empty, or at most 63 characters of the label-key alphabet ({@code
   * IsValidLabelValue}).
   *
   * @param value the value
   * @return Kubernetes' messages; empty when valid
   */
  public static List<String> isValidLabelValue(String value) {
    List<String> errors = new ArrayList<>();
    if (bytes(value) > LABEL_VALUE_MAX_LENGTH) {
      errors.add(maxLenError(LABEL_VALUE_MAX_LENGTH));
    }
    if (!value.isEmpty() && !isLabelKeyName(value)) {
      errors.add(
          regexError(
              "a valid label must be an empty string or consist of alphanumeric characters, '-',"
                  + " '_' or '.', and must start and end with an alphanumeric character",
              "(" + LABEL_KEY_FMT + ")?",
              "MyValue",
              "my_value",
              "12345"));
    }
    return errors;
  }

  /**
   * A name that can be a URL path segment: not {@code .} or {@code ..}, no {@code /} or {@code %}
   * ({@code IsValidPathSegmentName}); every resource name must be one.
   *
   * @param name the name
   * @return Kubernetes' messages; empty when valid
   */
  public static List<String> isValidPathSegmentName(String name) {
    if (name.equals(".") || name.equals("..")) {
      return List.of("may not be '" + name + "'");
    }
    List<String> errors = new ArrayList<>();
    if (name.contains("/")) {
      errors.add("may not contain '/'");
    }
    if (name.contains("%")) {
      errors.add("may not contain '%'");
    }
    return errors;
  }

  /**
   * A name, or with {@code prefix} a {@code generateName}, that must be a DNS subdomain ({@code
   * NameIsDNSSubdomain}); a prefix may end in '-'.
   *
   * @param name the name
   * @param prefix whether it is a generateName prefix
   * @return Kubernetes' messages; empty when valid
   */
  public static List<String> nameIsDNSSubdomain(String name, boolean prefix) {
    return isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
  }

  /**
   * A name, or with {@code prefix} a {@code generateName}, that must be a DNS label ({@code
   * NameIsDNSLabel}): the rule for namespaces.
   *
   * @param name the name
   * @param prefix whether it is a generateName prefix
   * @return Kubernetes' messages; empty when valid
   */
  public static List<String> nameIsDNSLabel(String name, boolean prefix) {
    return isDNS1123Label(prefix ? maskTrailingDash(name) : name);
  }

  /**
   * A name, or with {@code prefix} a {@code generateName}, that must be an RFC 1035 label ({@code
   * NameIsDNS1035Label}).
   *
   * @param name the name
   * @param prefix whether it is a generateName prefix
   * @return Kubernetes' messages; empty when valid
   */
  public static List<String> nameIsDNS1035Label(String name, boolean prefix) {
    return isDNS1035Label(prefix ? maskTrailingDash(name) : name);
  }

  /** Kubernetes replaces a generateName's last two characters by "a" when it ends in '-'. */
  private static String maskTrailingDash(String name) {
    return name.length() > 1 && name.endsWith("-")
        ? name.substring(0, name.length() - 2) + "a"
        : name;
  }

  /**
   * Kubernetes' message for a value over a length limit.
   *
   * @param length the limit
   * @return {@code must be no more than N characters}
   */
  public static String maxLenError(int length) {
    return "must be no more than " + length + " characters";
  }

  /**
   * Kubernetes' message for a value that does not match a pattern, with examples.
   *
   * @param message what the value must be
   * @param pattern the pattern, quoted in the message
   * @param examples valid examples
   * @return the message
   */
  public static String regexError(String message, String pattern, String... examples) {
    if (examples.length == 0) {
      return message + " (regex used for validation is '" + pattern + "')";
    }
    StringBuilder text = new StringBuilder(message).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        text.append(" or ");
      }
      text.append('\'').append(examples[i]).append("', ");
    }
    return text.append("regex used for validation is '").append(pattern).append("')").toString();
  }

  private static int bytes(String value) {
    int length = value.length();
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) >= 0x80) {
        return value.getBytes(StandardCharsets.UTF_8).length;
      }
    }
    return length;
  }

  private static boolean lowerAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }

  private static boolean alnum(char c) {
    return lowerAlnum(c) || (c >= 'A' && c <= 'Z');
  }

  /** {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}, or with {@code letterFirst} the RFC 1035 form. */
  private static boolean isLabel(String value, boolean letterFirst) {
    return isLabel(value, 0, value.length(), letterFirst);
  }

  private static boolean isLabel(String value, int from, int to, boolean letterFirst) {
    if (from >= to) {
      return false;
    }
    char first = value.charAt(from);
    if (letterFirst ? !(first >= 'a' && first <= 'z') : !lowerAlnum(first)) {
      return false;
    }
    if (!lowerAlnum(value.charAt(to - 1))) {
      return false;
    }
    for (int i = from + 1; i < to - 1; i++) {
      char c = value.charAt(i);
      if (!lowerAlnum(c) && c != '-') {
        return false;
      }
    }
    return true;
  }

  /** Labels joined by single dots. */
  private static boolean isSubdomain(String value) {
    int start = 0;
    for (int i = 0; i <= value.length(); i++) {
      if (i == value.length() || value.charAt(i) == '.') {
        if (!isLabel(value, start, i, false)) {
          return false;
        }
        start = i + 1;
      }
    }
    return true;
  }

  /** {@code ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]}. */
  private static boolean isLabelKeyName(String value) {
    if (value.isEmpty() || !alnum(value.charAt(0)) || !alnum(value.charAt(value.length() - 1))) {
      return false;
    }
    for (int i = 1; i < value.length() - 1; i++) {
      char c = value.charAt(i);
      if (!alnum(c) && c != '-' && c != '_' && c != '.') {
        return false;
      }
    }
    return true;
  }
}
