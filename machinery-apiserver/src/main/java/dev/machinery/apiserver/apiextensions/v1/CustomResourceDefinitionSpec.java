package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What a CustomResourceDefinition asks for. Immutable.
 *
 * @param group the API group, such as {@code stable.example.com}
 * @param names the names
 * @param scope {@code Namespaced} or {@code Cluster}
 * @param versions the versions
 * @param conversion the conversion between versions
 * @param preserveUnknownFields must be false in {@code v1}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CustomResourceDefinitionSpec(
    String group,
    CustomResourceDefinitionNames names,
    String scope,
    List<CustomResourceDefinitionVersion> versions,
    CustomResourceConversion conversion,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean preserveUnknownFields) {

  /**
   * Copies the versions.
   *
   * @param group see the record description
   * @param names see the record description
   * @param scope see the record description
   * @param versions see the record description
   * @param conversion see the record description
   * @param preserveUnknownFields see the record description
   */
  public CustomResourceDefinitionSpec {
    versions = versions == null ? List.of() : List.copyOf(versions);
  }
}
