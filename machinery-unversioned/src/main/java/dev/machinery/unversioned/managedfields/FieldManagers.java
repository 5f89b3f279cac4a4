package dev.machinery.unversioned.managedfields;

import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.ArrayList;
import java.util.List;

/** The name a write is recorded under, as kube-apiserver chooses and checks it. Stateless. */
public final class FieldManagers {
  /** The longest manager name, in bytes of UTF-8. */
  public static final int MAX_LENGTH = 128;

  private FieldManagers() {}

  /**
   * Returns the manager a write is recorded under: {@code fieldManager} when given, else the
   * User-Agent up to its first {@code /}, without unprintable characters and cut at {@link
   * #MAX_LENGTH} bytes ({@code kubectl/v1.33.0 (linux/amd64)} gives {@code kubectl}).
   *
   * @param fieldManager the {@code fieldManager} query parameter, or {@code null}
   * @param userAgent the User-Agent header, or {@code null}
   * @return the manager's name (empty when neither is given)
   */
  public static String managerOrUserAgent(String fieldManager, String userAgent) {
    if (fieldManager != null && !fieldManager.isEmpty()) {
      return fieldManager;
    }
    if (userAgent == null) {
      return "";
    }
    int slash = userAgent.indexOf('/');
    String prefix = slash < 0 ? userAgent : userAgent.substring(0, slash);
    StringBuilder out = new StringBuilder();
    int bytes = 0;
    for (int i = 0; i < prefix.length(); ) {
      int cp = prefix.codePointAt(i);
      i += Character.charCount(cp);
      if (!printable(cp)) {
        continue;
      }
      int size =
          new String(Character.toChars(cp))
              .getBytes(java.nio.charset.StandardCharsets.UTF_8)
              .length;
      if (bytes + size > MAX_LENGTH) {
        break;
      }
      out.appendCodePoint(cp);
      bytes += size;
    }
    return out.toString();
  }

  /**
   * Checks a {@code fieldManager} parameter: at most {@link #MAX_LENGTH} characters, all printable.
   *
   * @param fieldManager the parameter (empty or {@code null} for none)
   * @param path where it is, for the errors
   * @return the errors, empty when it is valid
   */
  public static List<FieldError> validate(String fieldManager, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (fieldManager == null) {
      return errors;
    }
    if (fieldManager.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_LENGTH) {
      errors.add(FieldError.tooLong(path, MAX_LENGTH));
    }
    int index = 0;
    for (int i = 0; i < fieldManager.length(); ) {
      int cp = fieldManager.codePointAt(i);
      if (!printable(cp)) {
        errors.add(
            FieldError.invalid(
                path,
                fieldManager,
                String.format("invalid character U+%04X (at position %d)", cp, index)));
      }
      i += Character.charCount(cp);
      index +=
          new String(Character.toChars(cp))
              .getBytes(java.nio.charset.StandardCharsets.UTF_8)
              .length;
    }
    return errors;
  }

  /** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
  private static boolean printable(int cp) {
    if (cp == ' ') {
      return true;
    }
    switch (Character.getType(cp)) {
      case Character.UPPERCASE_LETTER,
      Character.LOWERCASE_LETTER,
      Character.TITLECASE_LETTER,
      Character.MODIFIER_LETTER,
      Character.OTHER_LETTER,
      Character.NON_SPACING_MARK,
      Character.ENCLOSING_MARK,
      Character.COMBINING_SPACING_MARK,
      Character.DECIMAL_DIGIT_NUMBER,
      Character.LETTER_NUMBER,
      Character.OTHER_NUMBER,
      Character.CONNECTOR_PUNCTUATION,
      Character.DASH_PUNCTUATION,
      Character.START_PUNCTUATION,
      Character.END_PUNCTUATION,
      Character.INITIAL_QUOTE_PUNCTUATION,
      Character.FINAL_QUOTE_PUNCTUATION,
      Character.OTHER_PUNCTUATION,
      Character.MATH_SYMBOL,
      Character.CURRENCY_SYMBOL,
      Character.MODIFIER_SYMBOL,
      Character.OTHER_SYMBOL:
        return true;
      default:
        return false;
    }
  }
}
