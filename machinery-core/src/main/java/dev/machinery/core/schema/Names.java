package dev.machinery.core.schema;

import static dev.machinery.core.internal.Text.quote;

/** Validation of the parts of schema identifiers. Stateless. */
final class Names {
  static final int MAX_GROUP = 253;
  static final int MAX_LABEL = 63;

  private Names() {}

  static void checkGroup(String group) {
    if (group.isEmpty()) {
      return;
    }
    String problem = null;
    if (group.length() > MAX_GROUP) {
      problem = "is longer than " + MAX_GROUP + " characters";
    } else {
      int start = 0;
      while (problem == null) {
        int dot = group.indexOf('.', start);
        int end = dot < 0 ? group.length() : dot;
        problem = labelProblem(group, start, end, false);
        if (dot < 0) {
          break;
        }
        start = dot + 1;
      }
    }
    if (problem != null) {
      throw new MalformedIdentifierException(
          group,
          "invalid group "
              + quote(group)
              + ": "
              + problem
              + "; a group is empty (the legacy core group) or a lowercase DNS subdomain such as"
              + " \"apps\" or \"example.com\"");
    }
  }

  static void checkVersion(String version) {
    if (version.isEmpty() || version.equals(GroupVersion.INTERNAL_VERSION)) {
      return;
    }
    String problem = labelProblem(version, 0, version.length(), false);
    if (problem != null) {
      throw new MalformedIdentifierException(
          version,
          "invalid version "
              + quote(version)
              + ": "
              + problem
              + "; a version is a lowercase DNS label such as \"v1\" or \"v1beta2\"");
    }
  }

  static void checkResource(String resource) {
    if (resource.isEmpty()) {
      return;
    }
    String problem = labelProblem(resource, 0, resource.length(), false);
    if (problem != null) {
      throw new MalformedIdentifierException(
          resource,
          "invalid resource "
              + quote(resource)
              + ": "
              + problem
              + "; a resource is a lowercase DNS label such as \"deployments\"");
    }
  }

  static void checkKind(String kind) {
    if (kind.isEmpty()) {
      return;
    }
    String problem = labelProblem(kind, 0, kind.length(), true);
    if (problem == null && !isLetter(kind.charAt(0))) {
      problem = "must start with a letter";
    }
    if (problem != null) {
      throw new MalformedIdentifierException(
          kind,
          "invalid kind "
              + quote(kind)
              + ": "
              + problem
              + "; a kind is a name such as \"Deployment\" (letters, digits and inner '-')");
    }
  }

  /** Returns why {@code s[start, end)} is not a DNS label, or null when it is one. */
  private static String labelProblem(String s, int start, int end, boolean upperAllowed) {
    int length = end - start;
    if (length == 0) {
      return "has an empty label at position " + start;
    }
    if (length > MAX_LABEL) {
      return "has a label longer than " + MAX_LABEL + " characters at position " + start;
    }
    for (int i = start; i < end; i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= '0' && c <= '9')
              || (upperAllowed && c >= 'A' && c <= 'Z')
              || (c == '-' && i != start && i != end - 1);
      if (!ok) {
        return describe(c, i);
      }
    }
    return null;
  }

  private static String describe(char c, int position) {
    String what;
    if (Character.isWhitespace(c)) {
      what = "whitespace";
    } else if (c == '-') {
      what = "'-' at the start or end of a label";
    } else if (c >= 'A' && c <= 'Z') {
      what = "upper-case '" + c + "'";
    } else if (c < 0x20 || c > 0x7e) {
      what = String.format(java.util.Locale.ROOT, "character U+%04X", (int) c);
    } else {
      what = "'" + c + "'";
    }
    return "found " + what + " at position " + position;
  }

  private static boolean isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
}
