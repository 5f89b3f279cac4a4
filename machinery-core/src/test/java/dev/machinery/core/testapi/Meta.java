package dev.machinery.core.testapi;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** A small stand-in for ObjectMeta. */
public final class Meta {
  private String name;
  private String namespace;
  private Long generation;
  private Map<String, String> labels;

  public Meta() {}

  public Meta(String name) {
    this.name = name;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  public Long getGeneration() {
    return generation;
  }

  public void setGeneration(Long generation) {
    this.generation = generation;
  }

  public Map<String, String> getLabels() {
    return labels;
  }

  public void setLabels(Map<String, String> labels) {
    this.labels = labels == null ? null : new LinkedHashMap<>(labels);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Meta
        && Objects.equals(name, ((Meta) o).name)
        && Objects.equals(namespace, ((Meta) o).namespace)
        && Objects.equals(generation, ((Meta) o).generation)
        && Objects.equals(labels, ((Meta) o).labels);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, namespace, generation, labels);
  }
}
