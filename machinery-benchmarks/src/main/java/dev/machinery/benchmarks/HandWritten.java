package dev.machinery.benchmarks;

import dev.machinery.benchmarks.apps.internal.Container;
import dev.machinery.benchmarks.apps.internal.ContainerPort;
import dev.machinery.benchmarks.apps.internal.Deployment;
import dev.machinery.benchmarks.apps.internal.DeploymentSpec;
import dev.machinery.benchmarks.apps.internal.DeploymentStatus;
import dev.machinery.benchmarks.apps.internal.DeploymentStrategy;
import dev.machinery.benchmarks.apps.internal.EnvVar;
import dev.machinery.benchmarks.apps.internal.PodSpec;
import dev.machinery.benchmarks.apps.internal.PodTemplateSpec;
import dev.machinery.benchmarks.apps.internal.RollbackConfig;
import dev.machinery.benchmarks.apps.internal.RollingUpdateDeployment;
import dev.machinery.benchmarks.apps.v1.DeploymentConversions;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The baseline the generated code is measured against: conversion and deep copy of the benchmark
 * Deployment written by hand, straight-line, with no scope and no field paths. Stateless.
 */
public final class HandWritten {
  private HandWritten() {}

  /**
   * Converts the v1 Deployment to the internal form.
   *
   * @param in the v1 object
   * @return the internal object
   */
  public static Deployment toInternal(dev.machinery.benchmarks.apps.v1.Deployment in) {
    Deployment out = new Deployment();
    out.setApiVersion(in.getApiVersion());
    out.setKind(in.getKind());
    out.setMetadata(copy(in.getMetadata()));
    dev.machinery.benchmarks.apps.v1.DeploymentSpec spec = in.getSpec();
    if (spec != null) {
      DeploymentSpec s = new DeploymentSpec();
      s.setReplicas(spec.getReplicas() == null ? 0 : spec.getReplicas());
      s.setSelector(copy(spec.getSelector()));
      dev.machinery.benchmarks.apps.v1.PodTemplateSpec template = spec.getTemplate();
      if (template != null) {
        PodTemplateSpec t = new PodTemplateSpec();
        t.setMetadata(copy(template.getMetadata()));
        t.setSpec(toInternal(template.getSpec()));
        s.setTemplate(t);
      }
      dev.machinery.benchmarks.apps.v1.DeploymentStrategy strategy = spec.getStrategy();
      if (strategy != null) {
        DeploymentStrategy st = new DeploymentStrategy();
        st.setType(strategy.getType());
        if (strategy.getRollingUpdate() != null) {
          RollingUpdateDeployment r = new RollingUpdateDeployment();
          r.setMaxSurge(strategy.getRollingUpdate().getMaxSurge());
          r.setMaxUnavailable(strategy.getRollingUpdate().getMaxUnavailable());
          st.setRollingUpdate(r);
        }
        s.setStrategy(st);
      }
      s.setMinReadySeconds(spec.getMinReadySeconds());
      s.setRevisionHistoryLimit(spec.getRevisionHistoryLimit());
      s.setPaused(spec.isPaused());
      out.setSpec(s);
    }
    dev.machinery.benchmarks.apps.v1.DeploymentStatus status = in.getStatus();
    if (status != null) {
      DeploymentStatus st = new DeploymentStatus();
      st.setObservedGeneration(status.getObservedGeneration());
      st.setReplicas(status.getReplicas());
      st.setUpdatedReplicas(status.getUpdatedReplicas());
      st.setReadyReplicas(status.getReadyReplicas());
      st.setAvailableReplicas(status.getAvailableReplicas());
      st.setUnavailableReplicas(status.getUnavailableReplicas());
      out.setStatus(st);
    }
    ObjectMeta meta = out.getMetadata();
    String revision =
        meta == null || meta.getAnnotations() == null
            ? null
            : meta.getAnnotations().remove(DeploymentConversions.ROLLBACK_TO);
    if (revision != null && out.getSpec() != null) {
      RollbackConfig rollback = new RollbackConfig();
      rollback.setRevision(Long.parseLong(revision));
      out.getSpec().setRollbackTo(rollback);
    }
    return out;
  }

  private static PodSpec toInternal(dev.machinery.benchmarks.apps.v1.PodSpec in) {
    if (in == null) {
      return null;
    }
    PodSpec out = new PodSpec();
    List<dev.machinery.benchmarks.apps.v1.Container> containers = in.getContainers();
    if (containers != null) {
      List<Container> list = new ArrayList<>(containers.size());
      for (dev.machinery.benchmarks.apps.v1.Container c : containers) {
        Container o = new Container();
        o.setName(c.getName());
        o.setImage(c.getImage());
        o.setCommand(c.getCommand() == null ? null : new ArrayList<>(c.getCommand()));
        o.setArgs(c.getArgs() == null ? null : new ArrayList<>(c.getArgs()));
        if (c.getPorts() != null) {
          List<ContainerPort> ports = new ArrayList<>(c.getPorts().size());
          for (dev.machinery.benchmarks.apps.v1.ContainerPort p : c.getPorts()) {
            ContainerPort q = new ContainerPort();
            q.setName(p.getName());
            q.setContainerPort(p.getContainerPort());
            q.setProtocol(p.getProtocol());
            ports.add(q);
          }
          o.setPorts(ports);
        }
        if (c.getEnv() != null) {
          List<EnvVar> env = new ArrayList<>(c.getEnv().size());
          for (dev.machinery.benchmarks.apps.v1.EnvVar e : c.getEnv()) {
            EnvVar v = new EnvVar();
            v.setName(e.getName());
            v.setValue(e.getValue());
            env.add(v);
          }
          o.setEnv(env);
        }
        o.setImagePullPolicy(c.getImagePullPolicy());
        list.add(o);
      }
      out.setContainers(list);
    }
    out.setRestartPolicy(in.getRestartPolicy());
    out.setTerminationGracePeriodSeconds(in.getTerminationGracePeriodSeconds());
    out.setNodeSelector(copy(in.getNodeSelector()));
    String account = in.getServiceAccountName();
    out.setServiceAccountName(
        account == null || account.isEmpty() ? in.getServiceAccount() : account);
    return out;
  }

  /**
   * Deep-copies the v1 Deployment.
   *
   * @param in the object
   * @return the copy
   */
  public static dev.machinery.benchmarks.apps.v1.Deployment deepCopy(
      dev.machinery.benchmarks.apps.v1.Deployment in) {
    dev.machinery.benchmarks.apps.v1.Deployment out =
        new dev.machinery.benchmarks.apps.v1.Deployment();
    out.setApiVersion(in.getApiVersion());
    out.setKind(in.getKind());
    out.setMetadata(copy(in.getMetadata()));
    dev.machinery.benchmarks.apps.v1.DeploymentSpec spec = in.getSpec();
    if (spec != null) {
      dev.machinery.benchmarks.apps.v1.DeploymentSpec s =
          new dev.machinery.benchmarks.apps.v1.DeploymentSpec();
      s.setReplicas(spec.getReplicas());
      s.setSelector(copy(spec.getSelector()));
      dev.machinery.benchmarks.apps.v1.PodTemplateSpec template = spec.getTemplate();
      if (template != null) {
        dev.machinery.benchmarks.apps.v1.PodTemplateSpec t =
            new dev.machinery.benchmarks.apps.v1.PodTemplateSpec();
        t.setMetadata(copy(template.getMetadata()));
        t.setSpec(copy(template.getSpec()));
        s.setTemplate(t);
      }
      dev.machinery.benchmarks.apps.v1.DeploymentStrategy strategy = spec.getStrategy();
      if (strategy != null) {
        dev.machinery.benchmarks.apps.v1.DeploymentStrategy st =
            new dev.machinery.benchmarks.apps.v1.DeploymentStrategy();
        st.setType(strategy.getType());
        if (strategy.getRollingUpdate() != null) {
          dev.machinery.benchmarks.apps.v1.RollingUpdateDeployment r =
              new dev.machinery.benchmarks.apps.v1.RollingUpdateDeployment();
          r.setMaxSurge(strategy.getRollingUpdate().getMaxSurge());
          r.setMaxUnavailable(strategy.getRollingUpdate().getMaxUnavailable());
          st.setRollingUpdate(r);
        }
        s.setStrategy(st);
      }
      s.setMinReadySeconds(spec.getMinReadySeconds());
      s.setRevisionHistoryLimit(spec.getRevisionHistoryLimit());
      s.setPaused(spec.isPaused());
      out.setSpec(s);
    }
    dev.machinery.benchmarks.apps.v1.DeploymentStatus status = in.getStatus();
    if (status != null) {
      dev.machinery.benchmarks.apps.v1.DeploymentStatus st =
          new dev.machinery.benchmarks.apps.v1.DeploymentStatus();
      st.setObservedGeneration(status.getObservedGeneration());
      st.setReplicas(status.getReplicas());
      st.setUpdatedReplicas(status.getUpdatedReplicas());
      st.setReadyReplicas(status.getReadyReplicas());
      st.setAvailableReplicas(status.getAvailableReplicas());
      st.setUnavailableReplicas(status.getUnavailableReplicas());
      out.setStatus(st);
    }
    return out;
  }

  private static dev.machinery.benchmarks.apps.v1.PodSpec copy(
      dev.machinery.benchmarks.apps.v1.PodSpec in) {
    if (in == null) {
      return null;
    }
    dev.machinery.benchmarks.apps.v1.PodSpec out = new dev.machinery.benchmarks.apps.v1.PodSpec();
    List<dev.machinery.benchmarks.apps.v1.Container> containers = in.getContainers();
    if (containers != null) {
      List<dev.machinery.benchmarks.apps.v1.Container> list = new ArrayList<>(containers.size());
      for (dev.machinery.benchmarks.apps.v1.Container c : containers) {
        dev.machinery.benchmarks.apps.v1.Container o =
            new dev.machinery.benchmarks.apps.v1.Container();
        o.setName(c.getName());
        o.setImage(c.getImage());
        o.setCommand(c.getCommand() == null ? null : new ArrayList<>(c.getCommand()));
        o.setArgs(c.getArgs() == null ? null : new ArrayList<>(c.getArgs()));
        if (c.getPorts() != null) {
          List<dev.machinery.benchmarks.apps.v1.ContainerPort> ports =
              new ArrayList<>(c.getPorts().size());
          for (dev.machinery.benchmarks.apps.v1.ContainerPort p : c.getPorts()) {
            dev.machinery.benchmarks.apps.v1.ContainerPort q =
                new dev.machinery.benchmarks.apps.v1.ContainerPort();
            q.setName(p.getName());
            q.setContainerPort(p.getContainerPort());
            q.setProtocol(p.getProtocol());
            ports.add(q);
          }
          o.setPorts(ports);
        }
        if (c.getEnv() != null) {
          List<dev.machinery.benchmarks.apps.v1.EnvVar> env = new ArrayList<>(c.getEnv().size());
          for (dev.machinery.benchmarks.apps.v1.EnvVar e : c.getEnv()) {
            dev.machinery.benchmarks.apps.v1.EnvVar v =
                new dev.machinery.benchmarks.apps.v1.EnvVar();
            v.setName(e.getName());
            v.setValue(e.getValue());
            env.add(v);
          }
          o.setEnv(env);
        }
        o.setImagePullPolicy(c.getImagePullPolicy());
        list.add(o);
      }
      out.setContainers(list);
    }
    out.setRestartPolicy(in.getRestartPolicy());
    out.setTerminationGracePeriodSeconds(in.getTerminationGracePeriodSeconds());
    out.setNodeSelector(copy(in.getNodeSelector()));
    out.setServiceAccountName(in.getServiceAccountName());
    out.setServiceAccount(in.getServiceAccount());
    return out;
  }

  /**
   * Converts the internal Deployment to apps/v1beta1.
   *
   * @param in the object
   * @return the v1beta1 object
   */
  public static dev.machinery.benchmarks.apps.v1beta1.Deployment toV1beta1(Deployment in) {
    dev.machinery.benchmarks.apps.v1beta1.Deployment out =
        new dev.machinery.benchmarks.apps.v1beta1.Deployment();
    out.setApiVersion(in.getApiVersion());
    out.setKind(in.getKind());
    out.setMetadata(copy(in.getMetadata()));
    DeploymentSpec spec = in.getSpec();
    if (spec != null) {
      dev.machinery.benchmarks.apps.v1beta1.DeploymentSpec s =
          new dev.machinery.benchmarks.apps.v1beta1.DeploymentSpec();
      s.setReplicas(spec.getReplicas());
      s.setSelector(copy(spec.getSelector()));
      PodTemplateSpec template = spec.getTemplate();
      if (template != null) {
        dev.machinery.benchmarks.apps.v1beta1.PodTemplateSpec t =
            new dev.machinery.benchmarks.apps.v1beta1.PodTemplateSpec();
        t.setMetadata(copy(template.getMetadata()));
        t.setSpec(toV1beta1(template.getSpec()));
        s.setTemplate(t);
      }
      DeploymentStrategy strategy = spec.getStrategy();
      if (strategy != null) {
        dev.machinery.benchmarks.apps.v1beta1.DeploymentStrategy st =
            new dev.machinery.benchmarks.apps.v1beta1.DeploymentStrategy();
        st.setType(strategy.getType());
        if (strategy.getRollingUpdate() != null) {
          dev.machinery.benchmarks.apps.v1beta1.RollingUpdateDeployment r =
              new dev.machinery.benchmarks.apps.v1beta1.RollingUpdateDeployment();
          r.setMaxSurge(strategy.getRollingUpdate().getMaxSurge());
          r.setMaxUnavailable(strategy.getRollingUpdate().getMaxUnavailable());
          st.setRollingUpdate(r);
        }
        s.setStrategy(st);
      }
      s.setMinReadySeconds(spec.getMinReadySeconds());
      s.setRevisionHistoryLimit(spec.getRevisionHistoryLimit());
      s.setPaused(spec.isPaused());
      if (spec.getRollbackTo() != null) {
        dev.machinery.benchmarks.apps.v1beta1.RollbackConfig rollback =
            new dev.machinery.benchmarks.apps.v1beta1.RollbackConfig();
        rollback.setRevision(spec.getRollbackTo().getRevision());
        s.setRollbackTo(rollback);
      }
      out.setSpec(s);
    }
    DeploymentStatus status = in.getStatus();
    if (status != null) {
      dev.machinery.benchmarks.apps.v1beta1.DeploymentStatus st =
          new dev.machinery.benchmarks.apps.v1beta1.DeploymentStatus();
      st.setObservedGeneration(status.getObservedGeneration());
      st.setReplicas(status.getReplicas());
      st.setUpdatedReplicas(status.getUpdatedReplicas());
      st.setReadyReplicas(status.getReadyReplicas());
      st.setAvailableReplicas(status.getAvailableReplicas());
      st.setUnavailableReplicas(status.getUnavailableReplicas());
      out.setStatus(st);
    }
    return out;
  }

  private static dev.machinery.benchmarks.apps.v1beta1.PodSpec toV1beta1(PodSpec in) {
    if (in == null) {
      return null;
    }
    dev.machinery.benchmarks.apps.v1beta1.PodSpec out =
        new dev.machinery.benchmarks.apps.v1beta1.PodSpec();
    List<Container> containers = in.getContainers();
    if (containers != null) {
      List<dev.machinery.benchmarks.apps.v1beta1.Container> list =
          new ArrayList<>(containers.size());
      for (Container c : containers) {
        dev.machinery.benchmarks.apps.v1beta1.Container o =
            new dev.machinery.benchmarks.apps.v1beta1.Container();
        o.setName(c.getName());
        o.setImage(c.getImage());
        o.setCommand(c.getCommand() == null ? null : new ArrayList<>(c.getCommand()));
        o.setArgs(c.getArgs() == null ? null : new ArrayList<>(c.getArgs()));
        if (c.getPorts() != null) {
          List<dev.machinery.benchmarks.apps.v1beta1.ContainerPort> ports =
              new ArrayList<>(c.getPorts().size());
          for (ContainerPort p : c.getPorts()) {
            dev.machinery.benchmarks.apps.v1beta1.ContainerPort q =
                new dev.machinery.benchmarks.apps.v1beta1.ContainerPort();
            q.setName(p.getName());
            q.setContainerPort(p.getContainerPort());
            q.setProtocol(p.getProtocol());
            ports.add(q);
          }
          o.setPorts(ports);
        }
        if (c.getEnv() != null) {
          List<dev.machinery.benchmarks.apps.v1beta1.EnvVar> env =
              new ArrayList<>(c.getEnv().size());
          for (EnvVar e : c.getEnv()) {
            dev.machinery.benchmarks.apps.v1beta1.EnvVar v =
                new dev.machinery.benchmarks.apps.v1beta1.EnvVar();
            v.setName(e.getName());
            v.setValue(e.getValue());
            env.add(v);
          }
          o.setEnv(env);
        }
        o.setImagePullPolicy(c.getImagePullPolicy());
        list.add(o);
      }
      out.setContainers(list);
    }
    out.setRestartPolicy(in.getRestartPolicy());
    out.setTerminationGracePeriodSeconds(in.getTerminationGracePeriodSeconds());
    out.setNodeSelector(copy(in.getNodeSelector()));
    out.setServiceAccountName(in.getServiceAccountName());
    out.setServiceAccount(in.getServiceAccountName());
    return out;
  }

  private static ObjectMeta copy(ObjectMeta in) {
    // The shared type's generated deep copy, as Go's hand-written conversions call DeepCopyInto.
    return dev.machinery.unversioned.meta.v1.GeneratedDeepCopy.deepCopy(in);
  }

  private static LabelSelector copy(LabelSelector in) {
    // The shared type's generated deep copy, as for ObjectMeta.
    return dev.machinery.unversioned.meta.v1.GeneratedDeepCopy.deepCopy(in);
  }

  private static Map<String, String> copy(Map<String, String> in) {
    return in == null ? null : new LinkedHashMap<>(in);
  }
}
