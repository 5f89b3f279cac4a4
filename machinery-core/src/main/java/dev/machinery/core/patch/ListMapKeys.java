package dev.machinery.core.patch;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The key fields of a list whose {@link ListType} is {@code "map"}, as Kubernetes' {@code
 * +listMapKey} markers and OpenAPI's {@code x-kubernetes-list-map-keys} say: one or more field
 * names on the wire, like {@code {"containerPort", "protocol"}}. Without it a map list is keyed by
 * its {@link PatchMergeKey}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface ListMapKeys {
  /**
   * Returns the key fields' names on the wire.
   *
   * @return the key fields
   */
  String[] value();
}
