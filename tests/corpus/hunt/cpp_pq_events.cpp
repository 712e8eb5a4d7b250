#include "hunt.h"
/* Discrete-event simulation of a two-server workshop with a std::priority_queue of events ordered by time
   (std::greater on a struct with operator>): jobs arrive at times set by the arrival rate, each is served by
   the server that frees first, a job's service time depends continuously on the service-rate parameters and
   its size; departures are pushed back on the queue.  A finished job's sojourn time is accumulated in a
   std::vector and averaged.  Objective: mean sojourn time plus a cost on the makespan.
   Inputs: arrival spacing, the two servers' speeds. */
#include <array>
#include <cmath>
#include <numeric>
#include <queue>
#include <vector>

struct Event {
  double time;
  int kind;  // 0 arrival, 1 departure
  int job;
  int server;
  bool operator>(const Event& o) const { return time > o.time; }
};

struct Job {
  double arrival, size, start = 0.0, done = 0.0;
};

extern "C" double workshop(const double* p, int njobs) {
  const double spacing = p[0];
  const std::array<double, 2> speed = {p[1], p[2]};
  std::vector<Job> jobs;
  jobs.reserve(njobs);
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> queue;
  for (int j = 0; j < njobs; ++j) {
    double t = spacing * (j + 0.37 * std::sin(1.9 * j) + 0.5);
    jobs.push_back({t, 1.0 + 0.6 * std::cos(0.8 * j)});
    queue.push({t, 0, j, -1});
  }
  std::array<double, 2> free_at = {0.0, 0.0};
  std::vector<int> waiting;
  std::vector<double> sojourn;
  double now = 0.0;
  while (!queue.empty()) {
    Event e = queue.top();
    queue.pop();
    now = e.time;
    if (e.kind == 0) {
      waiting.push_back(e.job);
    } else {
      jobs[e.job].done = now;
      sojourn.push_back(now - jobs[e.job].arrival);
    }
    for (int s = 0; s < 2 && !waiting.empty(); ++s) {
      if (free_at[s] <= now) {
        int j = waiting.front();
        waiting.erase(waiting.begin());
        jobs[j].start = now;
        free_at[s] = now + jobs[j].size / speed[s];
        queue.push({free_at[s], 1, j, s});
      }
    }
  }
  double mean = std::accumulate(sojourn.begin(), sojourn.end(), 0.0) / sojourn.size();
  return mean + 0.05 * now;
}

static double p[3] = {0.45, 1.3, 0.9};

int main() {
  const int njobs = 14;
  double fd[3], ad[3], dp[3] = {0};
  hunt_fd_step = 1e-6;
  for (int q = 0; q < 3; ++q) fd[q] = HUNT_FD(workshop(p, njobs), p[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void*)workshop, enzyme_dup, p, dp, enzyme_const, njobs);
  hunt_check_vec("grad", dp, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; ++q) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void*)workshop, enzyme_dup, p, dp, enzyme_const, njobs);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  return hunt_finish();
}
