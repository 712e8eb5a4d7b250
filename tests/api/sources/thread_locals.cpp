// C++ thread_local objects: a history with a constructor and a destructor (registered with
// __cxa_thread_atexit), and std::call_once, whose state lives in libstdc++'s own thread-locals.
#include <mutex>
#include <vector>

thread_local std::vector<double> history;
static std::once_flag setup_flag;
static int setups;

extern "C" double record(double x) {
  history.push_back(x);
  double s = 0;
  for (double v : history) s += v;
  return s;
}

extern "C" long history_length() { return static_cast<long>(history.size()); }

extern "C" int setup_once() {
  std::call_once(setup_flag, [] { ++setups; });
  return setups;
}

