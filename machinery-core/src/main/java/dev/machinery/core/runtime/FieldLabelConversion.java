package dev.machinery.core.runtime;

import java.util.Optional;

/**
 * Converts the field labels of one kind and version, used in field selectors, into the internal
 * vocabulary; Kubernetes' {@code FieldLabelConversionFunc}. Returns empty for a label the kind does
 * not support, so that {@link Scheme#convertFieldLabel} rejects it.
 *
 * <p>Implementations are stateless and safe to call from any thread.
 */
@FunctionalInterface
public interface FieldLabelConversion {
  /**
   * Converts a label and its value.
   *
   * @param label the label as the client wrote it
   * @param value the value
   * @return the internal label and value, or empty if the label is not supported
   */
  Optional<FieldLabel> convert(String label, String value);
}
