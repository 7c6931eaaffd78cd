from configparser import ConfigParser
import setuptools, shlex

config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']
setuptools.setup(
    name=cfg['lib_name'], version=cfg['version'], license=cfg['license'],
    description=cfg['description'], author=cfg['author'], author_email=cfg['author_email'],
    packages=setuptools.find_packages(include=['normxlogit', 'normxlogit.*']),
    include_package_data=True,
    install_requires=shlex.split(cfg.get('requirements', '')),
    extras_require={'dev': shlex.split(cfg.get('dev_requirements', '')),
                    'coref': shlex.split(cfg.get('coref_requirements', ''))},
    python_requires='>=' + cfg['min_python'],
    entry_points={'console_scripts': [cfg['console_scripts'].replace(' ', '')],
                  'nbdev': [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"]},
    zip_safe=False)
