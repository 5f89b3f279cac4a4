package dev.machinery.unversioned.unstructured;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.core.codec.PreserveUnknownFields;
import dev.machinery.core.runtime.ApiObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A list of unstructured objects, Kubernetes' {@code UnstructuredList}: {@code apiVersion}, {@code
 * kind} (such as {@code DeploymentList}), {@code metadata} and any other list-level fields as JSON
 * values, and {@code items} as {@link Unstructured} objects. Items keep exactly the fields they
 * were decoded with; {@link #itemsWithKind()} fills in the item kind a list implies.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"apiVersion", "kind", "metadata", "items"})
@PreserveUnknownFields
public final class UnstructuredList implements ApiObject {
  private String apiVersion;
  private String kind;
  private Map<String, Object> metadata;
  private final Map<String, Object> fields = new LinkedHashMap<>();
  private List<Unstructured> items = new ArrayList<>();

  /** Creates an empty list. */
  public UnstructuredList() {}

  @Override
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getApiVersion() {
    return apiVersion;
  }

  @Override
  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  @Override
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getKind() {
    return kind;
  }

  @Override
  public void setKind(String kind) {
    this.kind = kind;
  }

  /**
   * Returns the list's {@code metadata} ({@code resourceVersion}, {@code continue}, ...), live.
   *
   * @return the metadata, or {@code null} when absent
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public Map<String, Object> getMetadata() {
    return metadata;
  }

  /**
   * Replaces the list's {@code metadata}.
   *
   * @param metadata the metadata as JSON values
   */
  public void setMetadata(Map<String, Object> metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the items, live.
   *
   * @return the items
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public List<Unstructured> getItems() {
    return items;
  }

  /**
   * Replaces the items.
   *
   * @param items the items; {@code null} is written as {@code null}
   */
  public void setItems(List<Unstructured> items) {
    this.items = items;
  }

  /**
   * Returns the list-level fields other than {@code apiVersion}, {@code kind}, {@code metadata} and
   * {@code items}, live.
   *
   * @return the fields
   */
  @JsonAnyGetter
  public Map<String, Object> fields() {
    return fields;
  }

  /**
   * Sets a list-level field; the decoder calls this for every field it has no property for.
   *
   * @param name the field name
   * @param value the JSON value
   */
  @JsonAnySetter
  public void setField(String name, Object value) {
    fields.put(Objects.requireNonNull(name, "name"), value);
  }

  /**
   * Returns copies of the items, each with the list's {@code apiVersion} and the item kind the list
   * kind implies ({@code DeploymentList} → {@code Deployment}) where the item names none.
   *
   * @return the items
   */
  @JsonIgnore
  public List<Unstructured> itemsWithKind() {
    String itemKind =
        kind != null && kind.endsWith("List") ? kind.substring(0, kind.length() - 4) : null;
    List<Unstructured> typed = new ArrayList<>();
    for (Unstructured item : items) {
      Unstructured copy = item.deepCopy();
      if (copy.getApiVersion() == null && apiVersion != null) {
        copy.setApiVersion(apiVersion);
      }
      if (copy.getKind() == null && itemKind != null) {
        copy.setKind(itemKind);
      }
      typed.add(copy);
    }
    return typed;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof UnstructuredList)) {
      return false;
    }
    UnstructuredList that = (UnstructuredList) other;
    return Objects.equals(apiVersion, that.apiVersion)
        && Objects.equals(kind, that.kind)
        && Objects.equals(metadata, that.metadata)
        && fields.equals(that.fields)
        && Objects.equals(items, that.items);
  }

  @Override
  public int hashCode() {
    return Objects.hash(apiVersion, kind, metadata, fields, items);
  }

  @Override
  public String toString() {
    return "UnstructuredList{"
        + apiVersion
        + ", "
        + kind
        + ", "
        + fields
        + ", items="
        + items
        + "}";
  }
}
