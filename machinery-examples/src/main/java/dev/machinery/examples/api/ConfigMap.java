package dev.machinery.examples.api;

import java.util.Map;

/** The core group's {@code v1 ConfigMap}: string data by key. Mutable; not thread-safe. */
public final class ConfigMap extends ObjectHeader {
  private Map<String, String> data;

  /** Creates an empty config map. */
  public ConfigMap() {}

  /**
   * Returns the data.
   *
   * @return the data, or {@code null}
   */
  public Map<String, String> getData() {
    return data;
  }

  /**
   * Sets the data.
   *
   * @param data the data
   */
  public void setData(Map<String, String> data) {
    this.data = data;
  }
}
