package com.example.widgets;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;

/** The widgets API: two served versions, one internal form, the shared meta.k8s.io types. */
public final class WidgetApi {
  public static final String GROUP = "widgets.example.com";
  public static final GroupVersion V1 = GroupVersion.of(GROUP, "v1");
  public static final GroupVersion V2 = GroupVersion.of(GROUP, "v2");

  private WidgetApi() {}

  public static Scheme scheme() {
    return builder().build();
  }

  /** The widget kinds and their conversions, to build on (a server adds its list kinds). */
  public static Scheme.Builder builder() {
    return MetaV1.addToScheme(Scheme.builder())
        .addKnownTypes(V1, com.example.widgets.v1.Widget.class)
        .addKnownTypes(V2, com.example.widgets.v2.Widget.class)
        .addInternalTypes(GROUP, com.example.widgets.internal.Widget.class)
        .setVersionPriority(V2, V1)
        .addDefaultingFunction(com.example.widgets.v1.Widget.class, WidgetApi::defaultV1)
        .addDefaultingFunction(com.example.widgets.v2.Widget.class, WidgetApi::defaultV2)
        .addConversions(
            new com.example.widgets.v1.GeneratedConversions(),
            new com.example.widgets.v1.GeneratedDeepCopy(),
            new com.example.widgets.v2.GeneratedConversions(),
            new com.example.widgets.v2.GeneratedDeepCopy(),
            new com.example.widgets.internal.GeneratedDeepCopy())
        .requireInternalVersions();
  }

  /** A widget without a size has size 1, in every version. */
  private static void defaultV1(com.example.widgets.v1.Widget widget) {
    if (widget.getSpec() != null && widget.getSpec().getSize() == null) {
      widget.getSpec().setSize(1);
    }
  }

  private static void defaultV2(com.example.widgets.v2.Widget widget) {
    if (widget.getSpec() != null && widget.getSpec().getSize() == null) {
      widget.getSpec().setSize(1);
    }
  }
}
