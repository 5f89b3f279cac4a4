package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One version of a custom resource. Immutable.
 *
 * @param name the version, such as {@code v1}
 * @param served whether it is served
 * @param storage whether objects are stored in it (exactly one version is)
 * @param deprecated whether it is deprecated
 * @param deprecationWarning the warning a client gets, or {@code null} for the default
 * @param schema the schema
 * @param subresources the subresources
 * @param additionalPrinterColumns the Table columns
 * @param selectableFields the fields a field selector may name
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CustomResourceDefinitionVersion(
    String name,
    boolean served,
    boolean storage,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean deprecated,
    String deprecationWarning,
    CustomResourceValidation schema,
    CustomResourceSubresources subresources,
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<CustomResourceColumnDefinition> additionalPrinterColumns,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<SelectableField> selectableFields) {

  /**
   * Copies the lists.
   *
   * @param name see the record description
   * @param served see the record description
   * @param storage see the record description
   * @param deprecated see the record description
   * @param deprecationWarning see the record description
   * @param schema see the record description
   * @param subresources see the record description
   * @param additionalPrinterColumns see the record description
   * @param selectableFields see the record description
   */
  public CustomResourceDefinitionVersion {
    additionalPrinterColumns =
        additionalPrinterColumns == null ? List.of() : List.copyOf(additionalPrinterColumns);
    selectableFields = selectableFields == null ? List.of() : List.copyOf(selectableFields);
  }
}
