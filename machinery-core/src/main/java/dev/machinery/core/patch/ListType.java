package dev.machinery.core.patch;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How a list's elements relate, as Kubernetes' {@code +listType} marker and OpenAPI's {@code
 * x-kubernetes-list-type} say: {@code "atomic"} (the list is one value), {@code "set"} (a list of
 * scalars, each element owned on its own) or {@code "map"} (a list of objects identified by the
 * {@link ListMapKeys} fields). Without it a list is atomic, unless {@code @PatchStrategy("merge")}
 * makes it a set or, with a {@link PatchMergeKey}, a map, as Kubernetes derives it. Read by the
 * schemas of server-side apply ({@code dev.machinery.core.typed}); strategic merge patch reads only
 * {@link PatchStrategy} and {@link PatchMergeKey}, as Go's does.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface ListType {
  /**
   * Returns the list type: {@code atomic}, {@code set} or {@code map}.
   *
   * @return the list type
   */
  String value();
}
