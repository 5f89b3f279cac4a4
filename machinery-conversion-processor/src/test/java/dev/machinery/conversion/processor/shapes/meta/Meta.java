package dev.machinery.conversion.processor.shapes.meta;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

public final class Meta {
  private String name;
  private long generation;
  private Instant created;
  private Map<String, String> labels;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public long getGeneration() {
    return generation;
  }

  public void setGeneration(long generation) {
    this.generation = generation;
  }

  public Instant getCreated() {
    return created;
  }

  public void setCreated(Instant created) {
    this.created = created;
  }

  public Map<String, String> getLabels() {
    return labels;
  }

  public void setLabels(Map<String, String> labels) {
    this.labels = labels;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Meta m
        && Objects.equals(name, m.name)
        && generation == m.generation
        && Objects.equals(created, m.created)
        && Objects.equals(labels, m.labels);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, generation, created, labels);
  }
}
