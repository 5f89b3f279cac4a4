package dev.machinery.apiserver.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class AuditFilterTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Kubernetes' TestCopyWithoutManagedFields: an object, a list's items, a Table's rows. */
  @Test
  void managedFieldsLeftOutOfObjectListAndTable() throws IOException {
    String managed = "{\"name\":\"x\",\"managedFields\":[{\"manager\":\"m\"}]}";
    String bare = "{\"name\":\"x\"}";
    assertEquals(
        JSON.readTree("{\"metadata\":" + bare + "}"),
        AuditFilter.withoutManagedFields(JSON.readTree("{\"metadata\":" + managed + "}")));
    assertEquals(
        JSON.readTree("{\"kind\":\"List\",\"items\":[{\"metadata\":" + bare + "}]}"),
        AuditFilter.withoutManagedFields(
            JSON.readTree("{\"kind\":\"List\",\"items\":[{\"metadata\":" + managed + "}]}")));
    assertEquals(
        JSON.readTree(
            "{\"kind\":\"Table\",\"rows\":[{\"cells\":[],\"object\":{\"metadata\":"
                + bare
                + "}}]}"),
        AuditFilter.withoutManagedFields(
            JSON.readTree(
                "{\"kind\":\"Table\",\"rows\":[{\"cells\":[],\"object\":{\"metadata\":"
                    + managed
                    + "}}]}")));
  }
}
