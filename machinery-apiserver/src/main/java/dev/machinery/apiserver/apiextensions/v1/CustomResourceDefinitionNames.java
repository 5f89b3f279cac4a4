package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The names a custom resource is served under. Immutable.
 *
 * @param plural the plural resource name, such as {@code crontabs}
 * @param singular the singular, such as {@code crontab} (the lower-cased kind when empty)
 * @param shortNames short names, such as {@code ct}
 * @param kind the kind, such as {@code CronTab}
 * @param listKind the list's kind ({@code kind + "List"} when empty)
 * @param categories the categories, such as {@code all}
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record CustomResourceDefinitionNames(
    String plural,
    String singular,
    List<String> shortNames,
    String kind,
    String listKind,
    List<String> categories) {

  /**
   * Copies the lists.
   *
   * @param plural see the record description
   * @param singular see the record description
   * @param shortNames see the record description
   * @param kind see the record description
   * @param listKind see the record description
   * @param categories see the record description
   */
  public CustomResourceDefinitionNames {
    shortNames = shortNames == null ? List.of() : List.copyOf(shortNames);
    categories = categories == null ? List.of() : List.copyOf(categories);
  }
}
