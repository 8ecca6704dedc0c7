// SPDX-License-Identifier: MIT
#include "core/tuned_policy_file.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace bwgemm {
namespace {

constexpr const char* kMagic = "bwgemm-policy 1";
constexpr int64_t kMaxExtent = int64_t{1} << 40;

// "fp16"/"bf16" and the op pair as bench and log spell them.
bool parse_type(const std::string& word, DType* out) {
  if (word == "fp16")
    *out = DType::F16;
  else if (word == "bf16")
    *out = DType::BF16;
  else
    return false;
  return true;
}

bool parse_op(const std::string& word, bool* trans_a, bool* trans_b) {
  if (word.size() != 2) return false;
  for (int i = 0; i < 2; ++i)
    if (word[i] != 'N' && word[i] != 'T') return false;
  *trans_a = word[0] == 'T';
  *trans_b = word[1] == 'T';
  return true;
}

bool parse_extent(const std::string& word, int64_t* out) {
  if (word.empty() || word.size() > 15 || word[0] < '0' || word[0] > '9') return false;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(word.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < 1 || v > kMaxExtent) return false;
  *out = v;
  return true;
}

// A name of printable ASCII without spaces: a family, configuration or version.
bool plain_word(const std::string& word) {
  if (word.empty() || word.size() > 64) return false;
  for (char ch : word)
    if (ch <= ' ' || ch > '~') return false;
  return true;
}

bool parse_rule(std::istringstream& in, TunedRule* rule, std::string* why) {
  std::string family, type, op, extents[6], choice, extra;
  in >> family >> type >> op;
  for (std::string& e : extents) in >> e;
  in >> choice;
  if (choice.empty()) return *why = "a rule needs 10 fields", false;
  if (in >> extra) return *why = "a rule has 10 fields, this one more", false;
  if (!plain_word(family)) return *why = "bad family name", false;
  if (!parse_type(type, &rule->type)) return *why = "type must be fp16 or bf16", false;
  if (!parse_op(op, &rule->trans_a, &rule->trans_b))
    return *why = "op must be NN, NT, TN or TT", false;
  for (int d = 0; d < 3; ++d) {
    if (!parse_extent(extents[2 * d], &rule->min[d]) ||
        !parse_extent(extents[2 * d + 1], &rule->max[d]) || rule->min[d] > rule->max[d])
      return *why = "ranges must be 1 <= min <= max <= 2^40", false;
  }
  if (!plain_word(choice)) return *why = "bad configuration name", false;
  rule->family = family;
  rule->choice = choice;
  return true;
}

// The rest of a header line after its keyword and one space.
bool header_value(const std::string& line, const char* key, std::string* out) {
  const std::string prefix = std::string(key) + " ";
  if (line.compare(0, prefix.size(), prefix) != 0 || line.size() == prefix.size()) return false;
  *out = line.substr(prefix.size());
  for (char ch : *out)
    if (ch < ' ' || ch > '~') return false;
  return true;
}

}  // namespace

bool parse_tuned_policy(const std::string& text, TunedPolicy* out, std::string* error) {
  if (text.size() > kMaxTunedPolicyBytes) {
    *error = "larger than " + std::to_string(kMaxTunedPolicyBytes) + " bytes";
    return false;
  }
  TunedPolicy policy;
  std::istringstream lines(text);
  std::string line;
  int number = 0, headers = 0;
  const char* const keys[] = {"device", "cublas", "build"};
  std::string* const values[] = {&policy.device, &policy.cublas, &policy.build};
  while (std::getline(lines, line)) {
    ++number;
    const auto fail = [&](const std::string& why) {
      *error = "line " + std::to_string(number) + ": " + why;
      return false;
    };
    if (number == 1) {
      if (line != kMagic) return fail(std::string("the first line must be \"") + kMagic + "\"");
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    if (headers < 3) {
      if (!header_value(line, keys[headers], values[headers]))
        return fail(std::string("expected \"") + keys[headers] + " <value>\"");
      ++headers;
      continue;
    }
    std::istringstream in(line);
    std::string keyword, why;
    in >> keyword;
    if (keyword != "rule") return fail("expected a rule");
    if (policy.rules.size() == kMaxTunedRules)
      return fail("more than " + std::to_string(kMaxTunedRules) + " rules");
    TunedRule rule;
    if (!parse_rule(in, &rule, &why)) return fail(why);
    policy.rules.push_back(rule);
  }
  if (number == 0 || headers < 3) {
    *error = number == 0 ? "empty" : "the device, cublas and build lines are missing";
    return false;
  }
  *out = std::move(policy);
  return true;
}

std::string format_tuned_policy(const TunedPolicy& p) {
  std::ostringstream out;
  out << kMagic << "\ndevice " << p.device << "\ncublas " << p.cublas << "\nbuild " << p.build
      << "\n";
  for (const TunedRule& r : p.rules) {
    out << "rule " << r.family << ' ' << (r.type == DType::BF16 ? "bf16" : "fp16") << ' '
        << (r.trans_a ? 'T' : 'N') << (r.trans_b ? 'T' : 'N');
    for (int d = 0; d < 3; ++d) out << ' ' << r.min[d] << ' ' << r.max[d];
    out << ' ' << r.choice << '\n';
  }
  return out.str();
}

}  // namespace bwgemm
