package dev.machinery.core.patch;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How the entries of a map or the fields of a struct relate, as Kubernetes' {@code +mapType} and
 * {@code +structType} markers and OpenAPI's {@code x-kubernetes-map-type} say: {@code "granular"}
 * (the default: each entry owned on its own) or {@code "atomic"} (the whole is one value, as a
 * label selector). Put it on the property, or on a class to make every use of it atomic.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD, ElementType.RECORD_COMPONENT, ElementType.TYPE})
public @interface MapType {
  /**
   * Returns {@code granular} or {@code atomic}.
   *
   * @return the map type
   */
  String value();
}
