package dev.machinery.unversioned.testapi;

public final class DeploymentV1beta1 extends Thing {}
