package dev.machinery.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.support.Seeds;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SchemaIdentifiersProperties {
  @Test
  void groupVersionRoundTripsThroughItsString() {
    Seeds.forEach(
        2000,
        r -> {
          GroupVersion gv = GroupVersion.of(Seeds.group(r), Seeds.version(r));
          assertEquals(gv, GroupVersion.parse(gv.toString()), gv.toString());
        });
  }

  @Test
  void groupVersionKindRoundTripsThroughBothForms() {
    Seeds.forEach(
        2000,
        r -> {
          GroupVersionKind gvk =
              GroupVersionKind.of(Seeds.group(r), Seeds.version(r), Seeds.kind(r));
          assertEquals(gvk, GroupVersionKind.parse(gvk.toString()));
          assertEquals(gvk, GroupVersionKind.fromApiVersionAndKind(gvk.apiVersion(), gvk.kind()));
          assertEquals(gvk.hashCode(), GroupVersionKind.parse(gvk.toString()).hashCode());
        });
  }

  @Test
  void groupVersionResourceRoundTrips() {
    Seeds.forEach(
        2000,
        r -> {
          GroupVersionResource gvr =
              GroupVersionResource.of(Seeds.group(r), Seeds.version(r), Seeds.label(r, 20));
          assertEquals(gvr, GroupVersionResource.parse(gvr.toString()));
        });
  }

  @Test
  void groupKindAndGroupResourceRoundTrip() {
    Seeds.forEach(
        2000,
        r -> {
          GroupKind gk = GroupKind.of(Seeds.group(r), Seeds.kind(r));
          assertEquals(gk, GroupKind.parse(gk.toString()));
          GroupResource gr = GroupResource.of(Seeds.group(r), Seeds.label(r, 20));
          assertEquals(gr, GroupResource.parse(gr.toString()));
        });
  }

  @Test
  void dottedKindArgumentAlwaysOffersTheFullySpecifiedReading() {
    Seeds.forEach(
        2000,
        r -> {
          String group = Seeds.label(r, 10) + (r.nextBoolean() ? "" : "." + Seeds.label(r, 8));
          // Internal versions are never typed on a command line: "__internal" is no group label.
          String version = Seeds.version(r).replace("__internal", "v1");
          GroupVersionKind gvk = GroupVersionKind.of(group, version, Seeds.kind(r));
          KindArg arg = KindArg.parse(gvk.kind() + "." + version + "." + group);
          assertEquals(Optional.of(gvk), arg.fullySpecified());
          assertEquals(GroupKind.of(version + "." + group, gvk.kind()), arg.groupKind());
        });
  }

  @Test
  void versionPriorityIsATotalOrder() {
    Seeds.forEach(
        500,
        r -> {
          String a = Seeds.version(r);
          String b = Seeds.version(r);
          String c = Seeds.version(r);
          assertEquals(
              Integer.signum(VersionPriority.compare(a, b)),
              -Integer.signum(VersionPriority.compare(b, a)),
              a + " vs " + b);
          if (VersionPriority.compare(a, b) <= 0 && VersionPriority.compare(b, c) <= 0) {
            assertTrue(VersionPriority.compare(a, c) <= 0, a + " <= " + b + " <= " + c);
          }
          assertEquals(VersionPriority.compare(a, b) == 0, a.equals(b));
        });
  }
}
