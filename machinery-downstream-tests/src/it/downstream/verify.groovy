// Fails the downstream build when Surefire ran no test, or not the ones expected: a project whose
// test plugin silently runs nothing would otherwise pass.
def reports = new File(basedir, 'target/surefire-reports')
assert reports.isDirectory() : 'Surefire wrote no reports: no test ran'
def expected = ['com.example.widgets.RoundTripTest', 'com.example.widgets.Fabric8ManifestsTest',
                'com.example.widgets.WidgetConversionTest', 'com.example.widgets.WidgetServerTest',
                'com.example.widgets.MemoryStorageContractTest', 'com.example.widgets.TestServerTest']
expected.each { name ->
  def report = new File(reports, "TEST-${name}.xml")
  assert report.isFile() : "no report for ${name}: it did not run"
  def head = report.getText('UTF-8').find(/<testsuite [^>]*>/)
  def count = { String attribute -> (head =~ /\b${attribute}="(\d+)"/)[0][1].toInteger() }
  int tests = count('tests')
  int failed = count('failures') + count('errors')
  int skipped = count('skipped')
  assert tests > 0 : "${name} ran no test"
  assert failed == 0 : "${name}: ${failed} of ${tests} failed"
  assert skipped == 0 : "${name}: ${skipped} of ${tests} skipped"
  println "downstream: ${name}: ${tests} tests passed"
}
return true
