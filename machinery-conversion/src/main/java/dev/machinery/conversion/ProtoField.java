package dev.machinery.conversion;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The protobuf field number of a property, as Kubernetes' {@code protobuf:"bytes,1,opt,name=..."}
 * struct tags and {@code generated.proto} files assign it. Put it on the getter, the field or the
 * record component.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface ProtoField {
  /**
   * The field number.
   *
   * @return the number, 1 or more
   */
  int value();

  /**
   * Whether the Go field is a pointer: written only when set. A field that is not (the default) is
   * always written, as Go writes a string, number or struct even when it is empty.
   *
   * @return true for a pointer field
   */
  boolean optional() default false;

  /**
   * Whether the value is raw JSON held in a message whose field 1 is the bytes ({@code FieldsV1},
   * {@code RawExtension}): a {@code Map} or other JSON value written as its JSON text.
   *
   * @return true for a raw JSON field
   */
  boolean rawJson() default false;
}
