package dev.machinery.unversioned.testapi;

public final class ReplicaSet extends Thing {
  private int replicas;
  private int readyReplicas;
  private String selector;

  public int getReplicas() {
    return replicas;
  }

  public void setReplicas(int replicas) {
    this.replicas = replicas;
  }

  public int getReadyReplicas() {
    return readyReplicas;
  }

  public void setReadyReplicas(int readyReplicas) {
    this.readyReplicas = readyReplicas;
  }

  public String getSelector() {
    return selector;
  }

  public void setSelector(String selector) {
    this.selector = selector;
  }
}
