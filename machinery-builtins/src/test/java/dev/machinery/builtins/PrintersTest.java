package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.core.schema.GroupVersionKind;
import org.junit.jupiter.api.Test;

/** The kinds said to have kube-apiserver's columns are exactly those that have them. */
class PrintersTest {
  @Test
  void theKindsWithColumnsAreThoseListed() {
    int printed = 0;
    for (GroupVersionKind kind : BuiltinKinds.kubernetes().kinds()) {
      boolean has = Printers.has(kind.groupKind());
      assertEquals(has, Printers.forKind(kind.groupKind()).isPresent(), kind.toString());
      printed += has ? 1 : 0;
    }
    assertEquals(22, printed, "the kinds kubectl get users see most");
  }
}
