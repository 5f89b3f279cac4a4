package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What the server observed of a CustomResourceDefinition. Immutable.
 *
 * @param conditions the conditions
 * @param acceptedNames the names the server serves the resource under
 * @param storedVersions the versions objects were ever stored in
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CustomResourceDefinitionStatus(
    List<CustomResourceDefinitionCondition> conditions,
    CustomResourceDefinitionNames acceptedNames,
    List<String> storedVersions) {

  /**
   * Copies the lists.
   *
   * @param conditions see the record description
   * @param acceptedNames see the record description
   * @param storedVersions see the record description
   */
  public CustomResourceDefinitionStatus {
    conditions = conditions == null ? List.of() : List.copyOf(conditions);
    storedVersions = storedVersions == null ? List.of() : List.copyOf(storedVersions);
  }
}
