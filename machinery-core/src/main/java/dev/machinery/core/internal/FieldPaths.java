package dev.machinery.core.internal;

import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Renders parser positions as Kubernetes-style field paths ({@code a.b[2].c}), at most {@value
 * #MAX_LENGTH} characters (longer paths keep their last part after {@code ...}). Stateless.
 */
public final class FieldPaths {
  /** The longest path rendered; longer ones keep their end. */
  public static final int MAX_LENGTH = 1024;

  private FieldPaths() {}

  /**
   * The path of the field or element the context is at.
   *
   * @param context a parser's or generator's context
   * @return the path, empty at the root
   */
  public static String of(JsonStreamContext context) {
    Deque<JsonStreamContext> chain = new ArrayDeque<>();
    for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
      chain.push(c);
    }
    StringBuilder out = new StringBuilder();
    for (JsonStreamContext c : chain) {
      if (c.inArray()) {
        out.append('[').append(c.getCurrentIndex()).append(']');
      } else if (c.getCurrentName() != null) {
        if (out.length() > 0) {
          out.append('.');
        }
        out.append(c.getCurrentName());
      }
    }
    return bounded(out);
  }

  private static String bounded(CharSequence path) {
    if (path.length() <= MAX_LENGTH) {
      return path.toString();
    }
    return "..." + path.subSequence(path.length() - (MAX_LENGTH - 3), path.length());
  }

  /**
   * The path a mapping exception recorded while it unwound.
   *
   * @param references the exception's path references
   * @return the path, empty at the root
   */
  public static String of(List<JsonMappingException.Reference> references) {
    StringBuilder out = new StringBuilder();
    for (JsonMappingException.Reference ref : references) {
      if (ref.getFieldName() != null) {
        if (out.length() > 0) {
          out.append('.');
        }
        out.append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        out.append('[').append(ref.getIndex()).append(']');
      }
    }
    return bounded(out);
  }

  /**
   * Appends a field name to a path.
   *
   * @param path the parent's path, empty at the root
   * @param name the field name
   * @return the child's path
   */
  public static String child(String path, String name) {
    return bounded(path.isEmpty() ? name : path + "." + name);
  }
}
