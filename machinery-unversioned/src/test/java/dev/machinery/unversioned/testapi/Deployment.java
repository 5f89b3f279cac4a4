package dev.machinery.unversioned.testapi;

public final class Deployment extends Thing {}
