package dev.machinery.cel;

import dev.machinery.unversioned.validation.FieldError;
import java.util.ArrayList;
import java.util.List;

/**
 * A semantic version, the runtime value of Kubernetes' {@code kubernetes.Semver}, read as the Go
 * library Kubernetes uses (blang/semver) reads one: {@code MAJOR.MINOR.PATCH}, then {@code
 * -prerelease} and {@code +build} parts of letters, digits and {@code -}, numbers without leading
 * zeros; errors in its words ({@code No Major.Minor.Patch elements found}). Versions compare by
 * major, minor and patch, then prerelease (a version without one is greater; numeric parts are less
 * than alphanumeric ones); build metadata is ignored, in comparison and equality. The numbers are
 * unsigned 64-bit, as Go's {@code uint64}. Immutable.
 */
final class Semver implements Comparable<Semver> {
  private static final String NUMBERS = "0123456789";
  private static final String ALPHANUMERIC =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-" + NUMBERS;

  private final long major;
  private final long minor;
  private final long patch;
  private final List<Object> prerelease;
  private final List<String> build;

  private Semver(long major, long minor, long patch, List<Object> prerelease, List<String> build) {
    this.major = major;
    this.minor = minor;
    this.patch = patch;
    this.prerelease = List.copyOf(prerelease);
    this.build = List.copyOf(build);
  }

  /** A text that is not a semantic version, with the Go library's message. */
  static final class ParseException extends Exception {
    private static final long serialVersionUID = 1L;

    ParseException(String message) {
      super(message, null, false, false);
    }
  }

  long major() {
    return major;
  }

  long minor() {
    return minor;
  }

  long patch() {
    return patch;
  }

  /**
   * Reads a version strictly.
   *
   * @throws ParseException when the text is not a semantic version
   */
  static Semver parse(String s) throws ParseException {
    if (s.isEmpty()) {
      throw new ParseException("Version string empty");
    }
    String[] parts = s.split("\\.", 3);
    if (parts.length != 3) {
      throw new ParseException("No Major.Minor.Patch elements found");
    }
    long major = number(parts[0], "major", "Major");
    long minor = number(parts[1], "minor", "Minor");
    String patchText = parts[2];
    List<String> build = new ArrayList<>();
    List<Object> prerelease = new ArrayList<>();
    int plus = patchText.indexOf('+');
    if (plus >= 0) {
      build.addAll(List.of(patchText.substring(plus + 1).split("\\.", -1)));
      patchText = patchText.substring(0, plus);
    }
    List<String> pre = new ArrayList<>();
    int dash = patchText.indexOf('-');
    if (dash >= 0) {
      pre.addAll(List.of(patchText.substring(dash + 1).split("\\.", -1)));
      patchText = patchText.substring(0, dash);
    }
    long patch = number(patchText, "patch", "Patch");
    for (String part : pre) {
      if (part.isEmpty()) {
        throw new ParseException("Prerelease is empty");
      }
      if (only(part, NUMBERS)) {
        if (part.length() > 1 && part.charAt(0) == '0') {
          throw new ParseException(
              "Numeric PreRelease version must not contain leading zeroes "
                  + FieldError.quote(part));
        }
        prerelease.add(unsigned(part));
      } else if (only(part, ALPHANUMERIC)) {
        prerelease.add(part);
      } else {
        throw new ParseException(
            "Invalid character(s) found in prerelease " + FieldError.quote(part));
      }
    }
    for (String part : build) {
      if (part.isEmpty()) {
        throw new ParseException("Build meta data is empty");
      }
      if (!only(part, ALPHANUMERIC)) {
        throw new ParseException(
            "Invalid character(s) found in build meta data " + FieldError.quote(part));
      }
    }
    return new Semver(major, minor, patch, prerelease, build);
  }

  /**
   * Reads a version after Kubernetes' normalization: a leading {@code v} dropped, leading zeros of
   * the first three parts dropped, missing minor and patch numbers taken as 0.
   *
   * @throws ParseException when the text is not a semantic version even so
   */
  static Semver parseNormalized(String s) throws ParseException {
    String text = s.startsWith("v") ? s.substring(1) : s;
    String[] parts = text.split("\\.", 3);
    if (text.isEmpty()) {
      parts = new String[] {""};
    }
    List<String> normal = new ArrayList<>();
    for (String part : parts) {
      if (part.length() > 1) {
        int i = 0;
        while (i < part.length() && part.charAt(i) == '0') {
          i++;
        }
        part = part.substring(i);
        if (part.isEmpty() || NUMBERS.indexOf(part.charAt(0)) < 0) {
          part = "0" + part;
        }
      }
      normal.add(part);
    }
    if (normal.size() < 3) {
      String last = normal.get(normal.size() - 1);
      if (last.contains("+") || last.contains("-")) {
        throw new ParseException("short version cannot contain PreRelease/Build meta data");
      }
      while (normal.size() < 3) {
        normal.add("0");
      }
    }
    return parse(String.join(".", normal));
  }

  private static long number(String text, String name, String capitalized) throws ParseException {
    if (!only(text, NUMBERS)) {
      throw new ParseException(
          "Invalid character(s) found in " + name + " number " + FieldError.quote(text));
    }
    if (text.length() > 1 && text.charAt(0) == '0') {
      throw new ParseException(
          capitalized + " number must not contain leading zeroes " + FieldError.quote(text));
    }
    return unsigned(text);
  }

  private static long unsigned(String text) throws ParseException {
    try {
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      String reason = text.isEmpty() ? "invalid syntax" : "value out of range";
      throw new ParseException(
          "strconv.ParseUint: parsing " + FieldError.quote(text) + ": " + reason);
    }
  }

  private static boolean only(String text, String allowed) {
    for (int i = 0; i < text.length(); i++) {
      if (allowed.indexOf(text.charAt(i)) < 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int compareTo(Semver o) {
    int c = Long.compareUnsigned(major, o.major);
    if (c == 0) {
      c = Long.compareUnsigned(minor, o.minor);
    }
    if (c == 0) {
      c = Long.compareUnsigned(patch, o.patch);
    }
    if (c != 0) {
      return Integer.signum(c);
    }
    if (prerelease.isEmpty() || o.prerelease.isEmpty()) {
      return prerelease.isEmpty() == o.prerelease.isEmpty() ? 0 : prerelease.isEmpty() ? 1 : -1;
    }
    for (int i = 0; i < Math.min(prerelease.size(), o.prerelease.size()); i++) {
      Object a = prerelease.get(i);
      Object b = o.prerelease.get(i);
      int part;
      if (a instanceof Long x && b instanceof Long y) {
        part = Long.compareUnsigned(x, y);
      } else if (a instanceof String x && b instanceof String y) {
        part = x.compareTo(y);
      } else {
        part = a instanceof Long ? -1 : 1;
      }
      if (part != 0) {
        return Integer.signum(part);
      }
    }
    return Integer.compare(prerelease.size(), o.prerelease.size());
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Semver s && compareTo(s) == 0;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(major, minor, patch, prerelease);
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    out.append(Long.toUnsignedString(major))
        .append('.')
        .append(Long.toUnsignedString(minor))
        .append('.')
        .append(Long.toUnsignedString(patch));
    for (int i = 0; i < prerelease.size(); i++) {
      out.append(i == 0 ? '-' : '.');
      Object part = prerelease.get(i);
      out.append(part instanceof Long n ? Long.toUnsignedString(n) : part);
    }
    for (int i = 0; i < build.size(); i++) {
      out.append(i == 0 ? '+' : '.').append(build.get(i));
    }
    return out.toString();
  }
}
