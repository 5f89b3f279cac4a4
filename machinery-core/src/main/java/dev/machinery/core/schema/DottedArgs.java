package dev.machinery.core.schema;

/** Splitting of dotted command-line arguments. Stateless. */
final class DottedArgs {
  private DottedArgs() {}

  /**
   * Splits {@code a.b.rest} into three parts, or returns null when there are fewer than two dots.
   */
  static String[] splitThree(String text) {
    int first = text.indexOf('.');
    int second = first < 0 ? -1 : text.indexOf('.', first + 1);
    if (second < 0) {
      return null;
    }
    return new String[] {
      text.substring(0, first), text.substring(first + 1, second), text.substring(second + 1)
    };
  }
}
