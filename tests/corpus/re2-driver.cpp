// re2-driver.cpp -- the corpus workload for RE2: makes N lines of
// log-like text, then R times compiles a set of patterns (with and
// without captures, case folding, Unicode classes, alternations), matches
// every line against them, rewrites the lines and sorts the matches.
//   re2driver N R
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "re2/re2.h"
#include "re2/set.h"

static std::vector<std::string> make_lines(int n)
{
	static const char *const words[] = {
		"alpha", "Beta", "gamma", "delta", "ÉPSILON", "zeta", "eta", "théta",
		"error", "warning", "info", "debug", "user", "host", "GET", "POST",
	};
	std::vector<std::string> lines;
	unsigned seed = 12345;
	auto next = [&seed]() { seed = seed * 1103515245u + 12345u; return (seed >> 8) & 0xffff; };
	for (int i = 0; i < n; i++) {
		std::string s = std::to_string(1000 + next() % 9000) + "-0" + std::to_string(1 + next() % 9)
			+ " " + words[next() % 16] + " id=" + std::to_string(next());
		for (int k = next() % 6; k > 0; k--)
			s += std::string(" ") + words[next() % 16] + (next() % 3 ? "" : "@example.org");
		s += " ip=" + std::to_string(next() % 256) + "." + std::to_string(next() % 256)
			+ ".0." + std::to_string(next() % 256);
		lines.push_back(s);
	}
	return lines;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: re2driver N R\n");
		return 2;
	}
	std::vector<std::string> lines = make_lines(atoi(argv[1]));
	long total = 0;
	for (int r = atoi(argv[2]); r > 0; r--) {
		RE2 date("(\\d{4})-(\\d{2}) (\\w+)");
		RE2 ip("ip=(\\d+)\\.(\\d+)\\.0\\.(\\d+)$");
		RE2 mail("([a-zA-Z]+)@(example|test)\\.(org|com)");
		RE2 folded("(?i)(error|warning|épsilon)\\s+id=(\\d+)");
		RE2 unicode("\\p{Lu}\\p{Ll}+|\\pL*é\\pL*");
		RE2 longest("(a|al|alp|alph|alpha|be|bet|beta)+", RE2::Latin1);
		RE2::Set set(RE2::DefaultOptions, RE2::UNANCHORED);
		for (const char *p : {"error.*@", "GET|POST", "host\\s+user", "id=\\d{5}\\b", "^9\\d{3}"})
			set.Add(p, nullptr);
		set.Compile();
		std::map<std::string, int> seen;
		std::vector<int> hits;
		for (std::string line : lines) {
			int year, month;
			std::string word, user, dom, tld, id;
			if (RE2::PartialMatch(line, date, &year, &month, &word))
				seen[word] += year % 7 + month;
			int a, b, c;
			if (RE2::PartialMatch(line, ip, &a, &b, &c))
				total += a ^ b ^ c;
			re2::StringPiece in(line);
			while (RE2::FindAndConsume(&in, mail, &user, &dom, &tld))
				total += user.size() + dom.size();
			if (RE2::PartialMatch(line, folded, &word, &id))
				total += id.size();
			total += RE2::PartialMatch(line, unicode) + RE2::PartialMatch(line, longest);
			if (set.Match(line, &hits))
				total += hits.size();
			total += RE2::GlobalReplace(&line, "(\\d+)", "<\\1>");
		}
		std::vector<std::pair<std::string, int>> order(seen.begin(), seen.end());
		std::sort(order.begin(), order.end(),
			  [](const std::pair<std::string, int> &x, const std::pair<std::string, int> &y) {
				  return x.second != y.second ? x.second > y.second : x.first < y.first;
			  });
		total += order.empty() ? 0 : order[0].second;
	}
	printf("%ld\n", total);
	return 0;
}
