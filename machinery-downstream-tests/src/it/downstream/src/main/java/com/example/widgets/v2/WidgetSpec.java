package com.example.widgets.v2;

import java.util.List;
import java.util.Objects;

/** What a widget should be. */
public class WidgetSpec {
  private Integer size;
  private String maintainer;
  private List<String> tags;

  public Integer getSize() {
    return size;
  }

  public void setSize(Integer size) {
    this.size = size;
  }

  public String getMaintainer() {
    return maintainer;
  }

  public void setMaintainer(String maintainer) {
    this.maintainer = maintainer;
  }

  public List<String> getTags() {
    return tags;
  }

  public void setTags(List<String> tags) {
    this.tags = tags;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WidgetSpec s
        && Objects.equals(size, s.size)
        && Objects.equals(maintainer, s.maintainer)
        && Objects.equals(tags, s.tags);
  }

  @Override
  public int hashCode() {
    return Objects.hash(size, maintainer, tags);
  }
}
