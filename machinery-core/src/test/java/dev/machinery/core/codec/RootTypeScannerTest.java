package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RootTypeScannerTest {
  private static String[] scan(String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    return RootTypeScanner.scan(bytes, 0, bytes.length);
  }

  @Test
  void findsTypeFieldsAnywhereInTheRootObject() {
    assertArrayEquals(
        new String[] {"apps/v1", "Deployment"},
        scan(
            "{\"spec\":{\"a\":[1,{\"kind\":\"Nested\"}]},\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\"}"));
    assertArrayEquals(
        new String[] {"v1", "Pod"},
        scan(" {\n \"apiVersion\" : \"v1\" ,\n \"metadata\":{}, \"kind\" : \"Pod\" }\n"));
  }

  @Test
  void ignoresNamesInValuesAndNestedObjects() {
    assertArrayEquals(
        new String[] {"v1", "Pod"},
        scan(
            "{\"name\":\"kind\",\"x\":\"\\\"kind\\\":{[\",\"apiVersion\":\"v1\",\"kind\":\"Pod\"}"));
    assertNull(scan("{\"spec\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\"}}"));
  }

  @Test
  void declinesWhenItCannotBeSure() {
    assertNull(
        scan("{\"ki\\u006ed\":\"Pod\",\"apiVersion\":\"v1\",\"kind\":\"Pod\"}"),
        "escaped root key");
    assertNull(scan("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"kind\":\"Pod\"}"), "duplicate");
    assertNull(scan("{\"kind\":1,\"apiVersion\":\"v1\"}"), "not a string");
    assertNull(scan("{\"kind\":\"P\\u006fd\",\"apiVersion\":\"v1\"}"), "escaped value");
    assertNull(scan("{\"apiVersion\":\"v1\"}"), "no kind");
    assertNull(scan("{\"apiVersion\":\"v1\",\"kind\":\"Pod\""), "unterminated");
    assertNull(scan("[]"), "not an object");
    assertNull(scan("{\"a\":\"unterminated"), "unterminated string");
  }
}
