package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.MetaV1;
import org.junit.jupiter.api.Test;

/** The builder's own checks name what was wrong. */
class ApiServerBuilderTest {
  private static final Scheme SCHEME = MetaV1.addToScheme(Scheme.builder()).build();

  @Test
  void aNegativeWatchCacheSizeIsRefused() {
    assertEquals(
        "the watch cache size must not be negative, got -1",
        assertThrows(
                IllegalArgumentException.class, () -> ApiServer.builder(SCHEME).watchCacheSize(-1))
            .getMessage());
    ApiServer.builder(SCHEME).watchCacheSize(0);
  }
}
