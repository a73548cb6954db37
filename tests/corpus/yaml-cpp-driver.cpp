// yaml-cpp-driver.cpp -- the corpus workload for yaml-cpp: makes N YAML
// documents (block and flow maps and sequences, anchors and aliases,
// quoted and literal scalars), one in four of them broken in one of
// several ways (an unclosed flow sequence, a map value in a plain scalar,
// a key at a bad indentation, an alias to an unknown anchor, ...), and R times
// parses each one, catching the parser's exceptions (YAML::ParserException)
// and the conversions' (YAML::BadConversion), walks the tree, emits it
// and parses the emitted text again.  Prints the counts.
//   yamldriver N R
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "yaml-cpp/yaml.h"

static unsigned seed = 2024;
static unsigned next() { seed = seed * 1103515245u + 12345u; return (seed >> 8) & 0xffff; }

static const char *const words[] = {
	"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
	"host", "port", "user", "path", "mode", "level", "name", "items",
};

static std::string word() { return words[next() % 16]; }

static std::string document(int i)
{
	std::string d = "# document " + std::to_string(i) + "\nname: " + word() + "-" +
		std::to_string(i) + "\nid: " + std::to_string(next()) + "\n";
	d += "base: &base" + std::to_string(i) + "\n  host: " + word() + ".example.org\n  port: " +
		std::to_string(1000 + next() % 9000) + "\n";
	d += "items:\n";
	for (int k = next() % 8 + 2; k > 0; k--) {
		switch (next() % 4) {
		case 0: d += "  - " + std::to_string(next()) + "\n"; break;
		case 1: d += "  - \"" + word() + " \\t " + word() + "\"\n"; break;
		case 2: d += "  - {" + word() + ": " + std::to_string(next() % 100) + ", ok: true}\n"; break;
		default: d += "  - [" + word() + ", " + std::to_string(next()) + ", 'q''" + word() + "']\n";
		}
	}
	d += "copy: *base" + std::to_string(i) + "\ntext: |\n";
	for (int k = next() % 4 + 1; k > 0; k--)
		d += "  " + word() + " " + word() + " " + word() + "\n";
	d += "nested:\n  " + word() + ":\n    " + word() + ": [1, 2, {x: " +
		std::to_string(next() % 50) + "}]\n    level: " + std::to_string(next() % 10) + "\n";
	if (i % 4 != 3)
		return d;
	// one in four broken, each way in turn
	switch ((i / 4) % 6) {
	case 0: return d + "broken: [" + word() + ", " + word() + "\n";
	case 1: return d + "broken: " + word() + ": " + word() + "\n";
	case 2: return d + "broken: *nowhere" + std::to_string(i) + "\n";
	case 3: return d + "   misplaced: " + word() + "\n";
	case 4: return d + "broken: {a: 1, b: [2, 3}\n";
	default: return d + "broken: !<tag" + word() + " x\n";
	}
}

static long walk(const YAML::Node &node, int depth)
{
	long n = 1;
	switch (node.Type()) {
	case YAML::NodeType::Sequence:
		for (const YAML::Node &child : node)
			n += walk(child, depth + 1);
		break;
	case YAML::NodeType::Map:
		for (const auto &kv : node)
			n += walk(kv.first, depth + 1) + walk(kv.second, depth + 1);
		break;
	case YAML::NodeType::Scalar:
		try {
			n += node.as<int>() % 7;
		} catch (const YAML::BadConversion &) {
			n += node.Scalar().size() + depth;
		}
		break;
	default:
		break;
	}
	return n;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: yamldriver N R\n");
		return 2;
	}
	std::vector<std::string> docs;
	for (int i = atoi(argv[1]) - 1; i >= 0; i--)
		docs.push_back(document(i));
	long nodes = 0, parsed = 0, failed = 0, lines = 0, bytes = 0;
	for (int r = atoi(argv[2]); r > 0; r--) {
		for (const std::string &text : docs) {
			try {
				YAML::Node doc = YAML::Load(text);
				nodes += walk(doc, 0);
				YAML::Emitter out;
				out << doc;
				YAML::Node again = YAML::Load(out.c_str());
				nodes += walk(again, 0) + again["items"].size();
				bytes += out.size();
				parsed++;
			} catch (const YAML::ParserException &e) {
				lines += e.mark.line;
				failed++;
			}
		}
	}
	printf("%ld parsed, %ld failed (lines %ld), %ld nodes, %ld bytes emitted\n",
	       parsed, failed, lines, nodes, bytes);
	return failed == 0 || parsed == 0;
}
