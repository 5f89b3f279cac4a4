package dev.machinery.unversioned.labels;

/**
 * The operators of a label requirement ({@code selection.Operator}), with the text Kubernetes
 * writes for each in a selector string.
 */
public enum Operator {
  /** {@code key=value}. */
  EQUALS("="),
  /** {@code key==value}. */
  DOUBLE_EQUALS("=="),
  /** {@code key!=value}: the value differs, or the label is absent. */
  NOT_EQUALS("!="),
  /** {@code key in (a,b)}. */
  IN(" in "),
  /** {@code key notin (a,b)}: none of the values, or the label is absent. */
  NOT_IN(" notin "),
  /** {@code key}: the label is present. */
  EXISTS(""),
  /** {@code !key}: the label is absent. */
  DOES_NOT_EXIST(""),
  /** {@code key>1}: the label is an integer greater than the value. */
  GREATER_THAN(">"),
  /** {@code key<1}: the label is an integer less than the value. */
  LESS_THAN("<");

  private final String text;

  Operator(String text) {
    this.text = text;
  }

  /** The text between key and values in a selector string. */
  String text() {
    return text;
  }
}
